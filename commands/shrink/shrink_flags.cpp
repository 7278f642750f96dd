// register_shrink (commands/shrink/shrink_command.hpp): `lockcheck shrink`'s flags.
#include <CLI/CLI.hpp>

#include <memory>

#include "commands/shrink/shrink_command.hpp"

namespace lockcheck {
namespace {

struct ShrinkFlags {
    ShrinkOptions shrink;
    std::string store = kDefaultStore;
};

}  // namespace

void register_shrink(CommandLine& line) {
    auto flags = std::make_shared<ShrinkFlags>();
    ShrinkOptions& options = flags->shrink;
    auto* shrink = line.app.add_subcommand(
        "shrink",
        "From a failing run, search the smallest spec (explicit fault schedule) that still fails the same way");
    shrink->add_option("run_dir", options.run_dir, "The failing run's directory")->required();
    shrink->add_option("--budget", options.budget, "Stop the search after this long (90s, 10m, 1h)")
        ->capture_default_str();
    shrink->add_option("--runs", options.runs, "Runs per candidate (kept when all but one fail the same way)")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    add_store_flag(*shrink, flags->store, "Where STORE/<scenario>/shrink-<id>/ goes");
    on_chosen(*shrink, line, [flags] {
        return with_run_options(flags->store, false, [&](const RunOptions& run_options) {
            return shrink_command(flags->shrink, run_options);
        });
    });
}

}  // namespace lockcheck
