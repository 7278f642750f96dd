// The battery of `lockcheck certify` (docs/certify.md): the faults a lock
// client is run under on each topology family, and what a *correct*
// lease-lock client meets under each, as data with the reason in words.
//
// One table (certify_battery.cpp). A cell names its faults, the spec fields
// it sets on top of the family's base settings, the families it applies to,
// its Expectation (spec/expectation.hpp: "valid", "lacks"), the blame
// classes it allows (checkers/overlap_blame.hpp), and why; the danger it
// exists for (CellEvidence: how it is counted from the record, how often its
// runs must bring it about, and why) and the shape of its workload
// (CertifyShape: contended or sparse) and the moment its fault aims at
// (CertifyAim: random, or a moment the run is in). docs/certify.md
// renders the same table; tests/harness/certify_battery_test.cpp checks it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/spec.hpp"

namespace lockcheck {

/// The danger a cell exists for: a cell whose runs never brought it about
/// says nothing about the client, and is "not exercised", never met.
struct CellEvidence {
    std::string danger;               ///< in words; empty: the cell needs none (no-faults)
    std::vector<std::string> counts;  ///< the danger counts (checkers/danger_counts.hpp) whose sum measures it
    int needed = 0;                   ///< how often it must come about (kDefaultEvidence; certify --evidence N)
    std::string reason;               ///< why this danger, in words
    /// The cell's budget: it runs again (each run its time_limit_s) until its
    /// runs saw the danger `needed` times, at most this many runs.
    int max_runs = 3;
};
inline constexpr int kDefaultEvidence = 3;

/// The shape of a cell's workload: how many workers, how long they hold and
/// think (spec fields set on the family's base, before the cell's own).
struct CertifyShape {
    std::string name;      ///< "contended" (the family's base, --workers clients) or "sparse"
    nlohmann::json settings;
    std::string reason;
};
/// Every shape.
const std::vector<CertifyShape>& certify_shapes();
/// The shape named `name`; throws SpecError for an unknown one.
const CertifyShape& certify_shape(const std::string& name);

/// The moment a cell's fault chooses from what the run is doing (spec fields
/// of the fault's options, set on top of the shape's and before the cell's
/// own): a random moment wastes a cell whose danger needs a particular one.
struct CertifyAim {
    std::string name;  ///< "random", "after-renew-sent", "waiter-in-acquire", "acquire-in-flight", ...
    nlohmann::json settings;
    std::string reason;
};
/// Every aim.
const std::vector<CertifyAim>& certify_aims();
/// The aim named `name`; throws SpecError for an unknown one.
const CertifyAim& certify_aim(const std::string& name);

/// One fault of the battery, and what a correct client meets under it.
struct CertifyCell {
    std::string name;                   ///< e.g. "kill-restart-delayed"; unique in the battery
    std::vector<std::string> nemesis;   ///< the faults it runs (spec field nemesis); none: no faults
    nlohmann::json settings;            ///< spec fields set on top of the family's base (fault options...)
    std::vector<std::string> families;  ///< the topologies it runs on
    Expectation expect;                 ///< what a correct client meets
    /// Whether an overlap within the lease is the servers' doing under this
    /// fault as configured (no persistence, asynchronous replication, a wall
    /// clock that jumps): then it is allowed, and blamed on the server
    /// configuration; otherwise it is the client's.
    bool within_lease_is_server = false;
    double time_limit_s = 12;  ///< workload seconds (short: the battery must fit in 5 minutes)
    std::string reason;        ///< why a correct client meets `expect` here, in words
    CellEvidence evidence = {};
    std::string shape = "contended";  ///< a CertifyShape's name
    std::string aim = "random";       ///< a CertifyAim's name
};

/// A family's own fields for one cell, set on top of the cell's, and why:
/// where the family's servers or recipe make the cell's settings miss its
/// danger (Redlock asks five nodes one after another, so a delay per reply
/// adds up five times).
struct CellOverride {
    std::string cell;  ///< a CertifyCell's name
    nlohmann::json settings;
    std::string reason;
};

/// The spec fields of a family's runs before a cell's own (recipe name, ttl,
/// hold and think times, timeouts): the topology's default recipe settings.
struct CertifyFamily {
    std::string topology;  ///< also the family's name
    std::string recipe;    ///< the built-in recipe of that family (only its name, with --client-cmd)
    nlohmann::json base;   ///< spec fields
    std::vector<CellOverride> overrides = {};
};

/// A built-in recipe's own fields for some cells, set on top of the
/// family's, and why: where the recipe's round trips make a cell's fault
/// miss its danger (WATCH, GET, MULTI, SET, INCR and EXEC are six round trips
/// per acquire, so a delay per reply adds up six times). Used only when the
/// card certifies that built-in recipe (never with --client-cmd).
struct CertifyRecipe {
    std::string recipe;  ///< a built-in recipe's name
    std::vector<CellOverride> overrides;
};
/// Every built-in recipe with overrides of its own.
const std::vector<CertifyRecipe>& certify_recipes();

/// The spec fields `cell` sets in `family`'s runs: its own settings, then
/// the family's override for it, then built-in `recipe`'s ("" for none or a
/// client command). An override may set "time_limit_s", the cell's workload
/// seconds (cell_time_limit_s).
nlohmann::json cell_settings(const CertifyCell& cell, const CertifyFamily& family, const std::string& recipe = "");
/// The cell's workload seconds given its settings (cell_settings): an
/// override's "time_limit_s", else the cell's own.
double cell_time_limit_s(const CertifyCell& cell, const nlohmann::json& settings);

/// Every cell, in the order a report card lists them.
const std::vector<CertifyCell>& certify_battery();
/// Every family the battery knows.
const std::vector<CertifyFamily>& certify_families();
/// The family of `topology`; throws SpecError naming the known ones.
const CertifyFamily& certify_family(const std::string& topology);
/// The cells of `topology`'s family, in battery order.
std::vector<CertifyCell> cells_for(const std::string& topology);
/// `cells` restricted to the comma-separated `names` (in battery order);
/// throws SpecError for a name that is no cell of the topology.
std::vector<CertifyCell> select_cells(const std::vector<CertifyCell>& cells, const std::string& names);

/// The spec fields a cell needs beside a lease of `ttl_ms` when its family's
/// is `family_ttl_ms`: faults last 1.5 to 2.5 x the lease, so op_timeout_ms
/// is raised above the longest (3 x ttl_ms, never below the default 10 s),
/// and a longer lease than the family's stretches the cell's workload
/// seconds and its server_timeout_ms by the same factor. An object without
/// fields for a lease no longer than the family's.
nlohmann::json ttl_scaled_fields(const CertifyCell& cell, std::int64_t ttl_ms, std::int64_t family_ttl_ms);

/// Resolves the battery's lease-relative ranges in spec fields `j` against
/// its ttl_ms: each bound of fault_duration_ms or nemesis_gap_ms given as
/// "Nxttl" (core/ttl_time.hpp) becomes N x ttl_ms in ms, so that a cell's
/// faults follow the family's lease (and --ttl-ms). Other fields are left.
void resolve_ttl_ranges(nlohmann::json& j);

/// The expectation in words: "valid", "no overlap-within-lease, late-grant".
std::string expectation_words(const Expectation& expect);

}  // namespace lockcheck
