#include "commands/run_command.hpp"

#include <CLI/CLI.hpp>

#include <memory>

#include "commands/flag_checks.hpp"
#include "run/run.hpp"
#include "run/run_flags.hpp"

namespace lockcheck {
namespace {

struct RunCommandFlags {
    RunFlags spec;
    bool stop_on_decided = false;
};

/// The flags that override the spec's fields.
void add_spec_flags(CLI::App& run, RunFlags& flags) {
    run.add_option("--time-limit", flags.time_limit, "Seconds of workload")
        ->check(positive_at_most(spec_bounds::kMaxTimeLimitS, "seconds", "1 day"));
    run.add_option("--seed", flags.seed, "Seed of the fault schedule and workload (printed and stored)")
        ->check(seed_number());
    run.add_option("--workers", flags.workers, "Number of lock clients, each its own process")
        ->check(CLI::Range(1, 256));
    run.add_option("--ttl-ms", flags.ttl_ms, "Lease asked for by every acquire")
        ->check(positive_at_most(static_cast<double>(spec_bounds::kMaxDurationMs), "ms", "1 hour"));
    run.add_option("--nemesis", flags.nemesis, "Comma-separated faults (`lockcheck list` shows them) or none");
    run.add_flag("--fencing", flags.fencing, "Reject stale fencing tokens at the protected resource");
    run.add_option("--network", flags.network, "auto, netns (needs root) or loopback");
    run.add_option("--runtime", flags.runtime,
                   "Where the nodes' servers run: a runtime `lockcheck list` shows (default netns)");
    run.add_option("--hosts", flags.hosts,
                   "Runtime ssh: a JSON hosts file, node i on host i (README, \"Run against the versions you run\")");
    run.add_option("--name", flags.name, "Scenario name (the run directory's parent)");
    run.add_option("--client-cmd", flags.client_cmd,
                   "Run this command (through sh -c) as every worker: your own lock client speaking "
                   "docs/protocol.md");
}

}  // namespace

void register_run(CommandLine& line) {
    auto flags = std::make_shared<RunCommandFlags>();
    auto* run = line.app.add_subcommand("run",
                                        "Run a scenario (a spec file, a scenario's name, flags, or the default) "
                                        "and check it");
    run->add_option("spec", flags->spec.spec,
                    "Spec file (scenarios/redis-holder-pause.json) or scenario name (redis-holder-pause), "
                    "found from any directory (docs/usage.md)");
    add_spec_flags(*run, flags->spec);
    add_store_flag(*run, flags->spec.store, "Where run directories go");
    run->add_option("--replay", flags->spec.replay,
                    "Run again a stored run directory's spec.json, same seed and fault schedule")
        ->check(CLI::ExistingDirectory)
        ->excludes("spec");
    run->add_flag("--stop-on-decided,!--no-stop-on-decided", flags->stop_on_decided,
                  "Stop a scenario that expects invalid once its expectation is met (default: off in run)");
    on_chosen(*run, line, [flags] {
        return with_run_options(flags->spec.store, flags->stop_on_decided, [&](RunOptions options) {
            ResolvedRun resolved = resolve_run(flags->spec);
            options.expectation_not_applicable = resolved.expectation_not_applicable;
            return run_spec(std::move(resolved.spec), options).exit_code;
        });
    });
}

}  // namespace lockcheck
