// register_suite (commands/suite/suite_command.hpp): `lockcheck suite`'s flags.
#include <CLI/CLI.hpp>

#include <memory>

#include "commands/suite/suite_command.hpp"

namespace lockcheck {
namespace {

struct SuiteFlags {
    std::string selector;
    std::string store = kDefaultStore;
    int repeat = 1;
    int jobs = 1;
    std::string shard = "1/1";
    bool stop_on_decided = true;
};

}  // namespace

void register_suite(CommandLine& line) {
    auto flags = std::make_shared<SuiteFlags>();
    auto* suite = line.app.add_subcommand(
        "suite", "Run scenarios (all, a directory, or those with a label) against their expect");
    suite->add_option("selector", flags->selector,
                      "A directory of specs, a spec file, or a label such as quick or nightly");
    add_store_flag(*suite, flags->store, "Where the suite directory goes");
    const auto add_count = [&](const char* name, int& count, const char* description, int most) {
        suite->add_option(name, count, description)->check(CLI::Range(1, most))->capture_default_str();
    };
    add_count("--repeat", flags->repeat, "Run each scenario N times with different seeds and report its detection rate",
              1000);
    add_count("--jobs", flags->jobs, "Run up to N scenarios side by side (scenarios labelled alone by themselves)", 64);
    suite->add_option("--shard", flags->shard, "K/N: run only the K-th of N slices of the scenarios (docs/ci.md)")
        ->capture_default_str();
    suite->add_flag("--stop-on-decided,!--no-stop-on-decided", flags->stop_on_decided,
                    "Stop a scenario that expects invalid once its expectation is met (default: on in suite)");
    on_chosen(*suite, line, [flags] {
        return with_run_options(flags->store, flags->stop_on_decided, [&](const RunOptions& options) {
            return suite_command(flags->selector, options, {flags->repeat, parse_shard(flags->shard), flags->jobs});
        });
    });
}

}  // namespace lockcheck
