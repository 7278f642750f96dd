// The run spec: everything that defines a run, read from a JSON file
// (scenarios/NAME.json) and/or flags, validated, and stored resolved (with
// its seed) in the run directory so the same run can be repeated.
// docs/spec.md lists every field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "clusters/durability_settings.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"
#include "core/ttl_time.hpp"
#include "nemesis/fault_registry.hpp"
#include "nemesis/schedule.hpp"

namespace lockcheck {

/// A spec that cannot be used; the message names the field and the reason.
class SpecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What a scenario must reach.
struct Expectation {
    std::optional<std::string> valid;  ///< "valid" | "invalid" | "unknown"
    std::vector<std::string> has;      ///< violation kinds that must appear
    std::vector<std::string> lacks;    ///< violation kinds that must not appear
};

/// The bounds of spec values (docs/spec.md, "Bounds"). A value outside them
/// is refused (exit 254): a wait that long would outlast any run, and a
/// larger number would overflow when turned into a time.
namespace spec_bounds {
inline constexpr std::size_t kMaxNameLength = 64;
inline constexpr double kMaxTimeLimitS = 86'400;  ///< time_limit_s: 1 day
/// ttl_ms, hold_ms, think_ms, nemesis_gap_ms, fault_duration_ms,
/// op_timeout_ms, server_timeout_ms: 1 hour. The bounds of fault options
/// are their descriptors' (nemesis/*_descriptor.cpp).
inline constexpr std::int64_t kMaxDurationMs = kMaxTtlMs;
inline constexpr int kMaxKeys = 1000;
inline constexpr std::int64_t kMaxOps = 100'000'000;  ///< max_ops
}  // namespace spec_bounds

struct Range {
    std::int64_t min = 0;
    std::int64_t max = 0;
};

struct Spec {
    std::string name = "redis-holder-pause";
    std::string description;
    std::vector<std::string> labels;  ///< e.g. "quick", "nightly": which suites run it
    std::string recipe = "redis-set-nx-px";
    std::string topology = "redis-single";
    std::string persistence = "none";
    /// What the other servers sync before they acknowledge (fields
    /// zookeeper_force_sync, mariadb_flush_log_at_trx_commit,
    /// mariadb_sync_binlog, mariadb_doublewrite, etcd_fsync, redis_aof_load_truncated); each applies to its own family's
    /// topologies, where a run writes it into the servers' configs.
    DurabilitySettings durability;
    std::string network = "auto";  ///< auto | netns | loopback
    /// Where the nodes' servers run: a runtime of clusters/runtimes/node_runtime_registry.hpp.
    std::string runtime = kDefaultNodeRuntime;
    /// Runtime docker: the image every node of the run runs (one family per
    /// run), e.g. "redis:7.2", used as the daemon has it; empty: lockcheck's
    /// own image of this host's servers (`lockcheck images`).
    std::string image;
    /// Runtime ssh: the hosts file (clusters/runtimes/remote_host.hpp), node i on host i.
    std::string hosts;
    int workers = 5;
    int keys = 1;
    std::int64_t ttl_ms = 1000;
    Range hold_ms{100, 400};
    Range think_ms{0, 10};  ///< pause between a release and the next acquire
    /// Who times a hold: "controller" (it waits hold_ms, then sends the
    /// write) or "client" (it sends op hold and the worker works hold_ms on
    /// its own clock, within the lock's validity: capability "hold").
    std::string hold_timed_by = "controller";
    double time_limit_s = 30;
    std::int64_t max_ops = 1'000'000;   ///< bound on ops recorded
    std::optional<std::uint64_t> seed;  ///< resolved before the run
    std::vector<std::string> nemesis{"pause-holder"};
    Range nemesis_gap_ms{1000, 3000};
    std::optional<Range> fault_duration_ms;  ///< default: 1.5 to 2.5 x ttl_ms
    bool fencing = false;
    std::int64_t op_timeout_ms = 10'000;    ///< controller's wait for a worker reply
    std::int64_t server_timeout_ms = 1000;  ///< worker's wait for a server reply
    std::optional<Expectation> expect;
    /// Run this command as every worker instead of the built-in recipe client
    /// (a lock client in any language speaking docs/protocol.md).
    std::optional<std::string> client_cmd;
    /// Settings of the built-in recipe, passed to the worker in its init,
    /// e.g. {"expire_gap_ms": 300} for redis-setnx-expire (docs/spec.md).
    nlohmann::json recipe_options = nlohmann::json::object();
    int nodes = 0;  ///< redis-independent: server nodes (0: 5)
    /// The options of every registered fault, keyed by field (top-level JSON
    /// fields such as restart_delay_ms, declared by the fault descriptors,
    /// nemesis/fault_registry.hpp), in stored form ("2xttl" stays a string):
    /// the defaults, and what the spec sets.
    nlohmann::json fault_options = default_fault_options();
    /// An explicit fault schedule (nemesis/schedule_json.hpp), which replaces
    /// the one the seed would generate; its faults must be in `nemesis`
    /// (which, when the spec does not set it, is the schedule's faults).
    std::optional<std::vector<FaultEvent>> schedule;
    /// The run directory this spec was shrunk from (`lockcheck shrink`), said
    /// on the report of every run of it; "" for a spec not shrunk.
    std::string shrunk_from;

    /// fault_duration_ms, or its default.
    Range fault_duration() const;
};

/// Parses a spec object; unknown fields and wrong types are errors. The
/// fields of fault options are those the registered faults declare.
/// `source` names the spec in messages.
Spec spec_from_json(const nlohmann::json& object, const std::string& source);
/// Reads a spec file. Throws SpecError for a missing file or invalid JSON too.
Spec read_spec(const std::filesystem::path& path);
/// The spec as JSON, every field present (the resolved spec of a run).
nlohmann::json spec_to_json(const Spec& spec);
/// Why `name` cannot name a scenario, or "" when it can. A scenario's name
/// becomes a directory under the store: 1 to spec_bounds::kMaxNameLength
/// characters from [A-Za-z0-9._-], not starting with '.', and none of the
/// store's own entries (latest, suites, compare).
std::string scenario_name_problem(const std::string& name);

/// Checks values (within spec_bounds), the name (scenario_name_problem), the
/// fault options (their descriptors' bounds) and combinations this build can
/// run, asking the descriptors of the topology, the recipe and the faults;
/// throws SpecError. Flags that override the spec are checked here too.
/// plan_run (spec/run_plan.hpp) is the same check returning the spec resolved.
void validate(const Spec& spec);

}  // namespace lockcheck
