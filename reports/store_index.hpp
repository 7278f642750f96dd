// store/index.html: every run in a store on one page, newest first, each
// linking its report.html, as Jepsen's `serve` lists its store
// (`lockcheck index`, docs/reports.md). Self-contained: no script, no
// request, every text escaped.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lockcheck {

/// One run as the index lists it.
struct IndexedRun {
    std::string path;               ///< the run directory relative to the store, '/'-separated
    std::string scenario;           ///< the spec's name
    std::string started;            ///< when it started, "2026-11-23 11:34:12 UTC" ("" when unknown)
    std::string verdict;            ///< "valid" | "invalid" | "unknown" | "" (no results.json: it never finished)
    std::string expectation;        ///< "met" | "NOT met" | "does not apply" | "" (the scenario expects nothing)
    std::string client;             ///< its workers' hello (results.json run.client)
    std::optional<double> seconds;  ///< the workload's length
    bool has_report = false;        ///< report.html exists in it
};

/// The page. `runs` in the order to list them (newest first); `store` is
/// the store's path as the heading shows it.
std::string render_store_index(const std::vector<IndexedRun>& runs, const std::string& store);

}  // namespace lockcheck
