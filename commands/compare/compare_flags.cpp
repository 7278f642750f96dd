// register_compare (commands/compare/compare_command.hpp): `lockcheck compare`'s flags.
#include <CLI/CLI.hpp>

#include <memory>

#include "commands/compare/compare_command.hpp"
#include "commands/flag_checks.hpp"

namespace lockcheck {
namespace {

struct CompareFlags {
    CompareOptions compare;
    std::string store = kDefaultStore;
};

}  // namespace

void register_compare(CommandLine& line) {
    auto flags = std::make_shared<CompareFlags>();
    CompareOptions& options = flags->compare;
    auto* compare = line.app.add_subcommand("compare", "Run a grid of spec variations, the same seeds in every cell");
    compare->add_option("spec", options.spec_path, "Spec file")->required()->check(CLI::ExistingFile);
    compare->add_option("--vary", options.varies, "FIELD=V1,V2,... (repeatable): any spec field")->required();
    compare->add_option("--runs", options.runs, "Runs per cell")->check(CLI::Range(1, 1000))->capture_default_str();
    compare->add_option("--seed", options.seed, "First seed; run i of every cell uses seed + i")->check(seed_number());
    compare->add_option("--time-limit", options.time_limit, "Seconds of workload per run")
        ->check(positive_at_most(spec_bounds::kMaxTimeLimitS, "seconds", "1 day"));
    add_store_flag(*compare, flags->store, "Where the compare directory goes");
    on_chosen(*compare, line, [flags] {
        return with_run_options(flags->store, false, [&](const RunOptions& run_options) {
            return compare_command(flags->compare, run_options);
        });
    });
}

}  // namespace lockcheck
