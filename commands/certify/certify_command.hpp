// `lockcheck certify`: runs the battery of a topology's family
// (commands/certify/certify_battery.hpp) against the user's lock client, one real run
// per cell (run_spec, as `suite` does), and writes the report card
// (commands/certify/certify_card.hpp) to the terminal and to
// STORE/certify-<topology>-<id>/ (certify.html, certify.json, junit.xml).
// docs/certify.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "run/run.hpp"
#include "commands/subcommand.hpp"

namespace lockcheck {

struct CertifyOptions {
    /// The lock client, run through sh -c as every worker; none: the
    /// family's built-in recipe (CertifyFamily::recipe) is certified.
    std::optional<std::string> client_cmd;
    std::optional<std::string> recipe;  ///< without client_cmd: this built-in recipe instead of the family's
    std::string topology;
    std::optional<std::int64_t> ttl_ms;  ///< overrides the family's ttl
    int workers = 3;
    int repeat = 1;                     ///< runs per cell at least (more while a cell's danger is short)
    /// How often each cell's danger must come about (CellEvidence::needed);
    /// none: each cell's own (kDefaultEvidence). A cell that needs none keeps needing none.
    std::optional<int> evidence;
    std::optional<double> time_limit;   ///< overrides every cell's workload seconds
    std::optional<std::string> cells;   ///< comma-separated cell names; none: the whole battery
};

/// Runs the battery; returns certify_exit_code's code (0 every cell met,
/// 1 one did not, 2 one could not decide or was not exercised and none
/// failed). A cell runs until its runs saw its danger as often as needed, or
/// its budget (CellEvidence::max_runs) ends (commands/certify/certify_evidence.hpp). Throws SpecError
/// (exit 254) for an unknown topology or cell, before anything runs.
int certify_command(const CertifyOptions& certify, const RunOptions& options);

/// Adds `certify` and its flags to the command line (commands/subcommand.hpp; commands/certify/certify_flags.cpp).
void register_certify(CommandLine& line);

}  // namespace lockcheck
