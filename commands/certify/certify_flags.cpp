// register_certify (commands/certify/certify_command.hpp): `lockcheck certify`'s flags.
#include <CLI/CLI.hpp>

#include <memory>

#include "commands/certify/certify_command.hpp"
#include "commands/flag_checks.hpp"

namespace lockcheck {
namespace {

struct CertifyFlags {
    CertifyOptions certify;
    std::string store = kDefaultStore;
};

/// How each cell runs: its lease, workers, repeats and workload seconds.
void add_cell_flags(CLI::App& certify, CertifyOptions& options) {
    certify.add_option("--ttl-ms", options.ttl_ms, "Lease asked for by every acquire (default: the family's)")
        ->check(positive_at_most(static_cast<double>(spec_bounds::kMaxDurationMs), "ms", "1 hour"));
    certify.add_option("--workers", options.workers, "Number of lock clients per cell")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    certify.add_option("--repeat", options.repeat, "Runs per cell (a cell is met when every run meets it)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    certify.add_option("--evidence", options.evidence,
                       "How often each cell's danger must come about for the cell to count (default: 3); a cell "
                       "that saw it fewer times is not exercised (exit 2)")
        ->check(CLI::Range(1, 1000));
    certify.add_option("--time-limit", options.time_limit, "Seconds of workload per cell (default: each cell's)")
        ->check(positive_at_most(spec_bounds::kMaxTimeLimitS, "seconds", "1 day"));
}

}  // namespace

void register_certify(CommandLine& line) {
    auto flags = std::make_shared<CertifyFlags>();
    CertifyOptions& options = flags->certify;
    auto* certify = line.app.add_subcommand(
        "certify", "Run the fault battery of a topology against your lock client and print its report card");
    certify->add_option("--client-cmd", options.client_cmd,
                        "Your lock client (through sh -c), speaking docs/protocol.md (without it: the family's "
                        "built-in recipe)");
    certify->add_option("--recipe", options.recipe,
                        "Without --client-cmd: certify this built-in recipe instead of the family's");
    certify->add_option("--topology", options.topology, "The topology whose family's battery runs")->required();
    add_cell_flags(*certify, options);
    certify->add_option("--cells", options.cells, "Comma-separated cells to run (default: the whole battery)");
    add_store_flag(*certify, flags->store, "Where the certify directory goes");
    on_chosen(*certify, line, [flags] {
        // As in a suite, a cell expecting invalid would stop once decided (no cell of the
        // battery does: each states what a correct client meets, judged on its whole short run).
        return with_run_options(flags->store, true, [&](const RunOptions& run_options) {
            return certify_command(flags->certify, run_options);
        });
    });
}

}  // namespace lockcheck
