#include "spec/run_plan.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "clusters/runtimes/node_runtime_registry.hpp"
#include "clusters/topologies/topology_registry.hpp"
#include "core/option_kinds.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/fault_registry.hpp"
#include "recipes/recipes.hpp"
#include "spec/schedule_validation.hpp"

namespace lockcheck {
namespace {

/// Throws the SpecError of a field and the reason it is refused.
using Fail = std::function<void(const std::string& field, const std::string& reason)>;

/// `text` as a one-line JSON string (control characters escaped, bytes that
/// are not UTF-8 replaced), at most 80 characters of it: safe in an error line.
std::string shown(const std::string& text) {
    return nlohmann::json(text.substr(0, 80)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool is_name_character(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
}

/// Checks the spec's numbers against spec_bounds (flags that override the
/// spec come here unchecked), before anything computes with them.
void check_bounds(const Spec& s, const Fail& fail) {
    using namespace spec_bounds;
    const auto duration = [&](const char* field, std::int64_t value, std::int64_t min) {
        if (value < min || value > kMaxDurationMs)
            fail(field, "must be within [" + std::to_string(min) + ", " + std::to_string(kMaxDurationMs) + "] ms" +
                            " (at most 1 hour)");
    };
    const auto range = [&](const char* field, const Range& r) {
        if (r.min < 0 || r.min > r.max || r.max > kMaxDurationMs)
            fail(field, "must be [min, max] with 0 <= min <= max <= " + std::to_string(kMaxDurationMs) +
                            " ms (at most 1 hour)");
    };
    if (s.workers < 1) fail("workers", "must be at least 1");
    if (s.keys < 1 || s.keys > kMaxKeys) fail("keys", "must be within [1, " + std::to_string(kMaxKeys) + "]");
    duration("ttl_ms", s.ttl_ms, 1);
    range("hold_ms", s.hold_ms);
    range("think_ms", s.think_ms);
    range("nemesis_gap_ms", s.nemesis_gap_ms);
    if (s.fault_duration_ms) range("fault_duration_ms", *s.fault_duration_ms);
    if (!(s.time_limit_s > 0 && s.time_limit_s <= kMaxTimeLimitS))
        fail("time_limit_s", "must be a number of seconds in (0, " + std::to_string(static_cast<int>(kMaxTimeLimitS)) +
                                 "] (at most 1 day)");
    if (s.max_ops < 1 || s.max_ops > kMaxOps) fail("max_ops", "must be within [1, " + std::to_string(kMaxOps) + "]");
    duration("op_timeout_ms", s.op_timeout_ms, 1);
    duration("server_timeout_ms", s.server_timeout_ms, 1);
}

/// Checks every registered fault's options (form and bounds, from their
/// descriptors), whether the nemesis uses the fault or not.
void check_fault_options(const Spec& s, const Fail& fail) {
    for (const auto& fault : fault_descriptors()) {
        const bool in_use = std::find(s.nemesis.begin(), s.nemesis.end(), fault.name) != s.nemesis.end();
        for (const auto& option : fault.options) {
            const auto it = s.fault_options.find(option.name);
            if (it == s.fault_options.end()) fail(option.name, "is missing");
            // A default of a fault the run does not inject is never used: a
            // ttl_ms that makes it come to nothing ("0.25xttl" of 1 ms) is no
            // reason to refuse the spec. A value the spec set is checked always.
            if (!in_use && *it == option.default_value) continue;
            if (const auto problem = option_problem(option, *it, OptionContext{s.ttl_ms})) fail(option.name, *problem);
        }
    }
}

/// Checks the recipe (unless a user's client implements its own, when
/// `recipe` is only its name): known, on this topology, with options it
/// declares. Returns it, or nullptr with client_cmd.
const RecipeDescriptor* checked_recipe(const Spec& s, const Fail& fail) {
    if (s.client_cmd) return nullptr;
    const RecipeDescriptor* recipe = find_recipe(s.recipe);
    if (!recipe) fail("recipe", "names no known recipe ('" + s.recipe + "'); `lockcheck list` shows them");
    if (std::find(recipe->topologies.begin(), recipe->topologies.end(), s.topology) == recipe->topologies.end())
        fail("topology", "'" + s.topology + "' cannot run recipe '" + s.recipe + "'");
    try {
        check_recipe_options(*recipe, s.recipe_options);
    } catch (const std::invalid_argument& e) {
        fail("recipe_options", std::string("is not valid: ") + e.what());
    }
    return recipe;
}

/// Checks field nodes against what `topology` takes.
void check_nodes(const Spec& s, const TopologyDescriptor& topology, const Fail& fail) {
    if (s.nodes == 0) return;
    if (topology.max_nodes == 0) {
        std::vector<std::string> sized;
        for (const auto& t : topology_descriptors())
            if (t.max_nodes > 0) sized.push_back(t.name);
        fail("nodes", "applies to topology " + choice_list(sized) + " only");
    }
    if (s.nodes > topology.max_nodes) fail("nodes", "must be at most " + std::to_string(topology.max_nodes));
}

/// Checks the durability settings: values the servers take, and a setting
/// other than its default only on a topology of its server's family (it
/// would change nothing elsewhere).
void check_durability(const Spec& s, const Fail& fail) {
    const DurabilitySettings defaults;
    const auto only_on = [&](const char* field, bool differs, const std::vector<std::string>& topologies) {
        if (differs && std::find(topologies.begin(), topologies.end(), s.topology) == topologies.end())
            fail(field, "applies to topology " + choice_list(topologies) + " only");
    };
    const int flush = s.durability.mariadb_flush_log_at_trx_commit;
    if (flush < 0 || flush > 2) fail("mariadb_flush_log_at_trx_commit", "must be 0, 1 or 2");
    if (s.durability.mariadb_sync_binlog > 1) fail("mariadb_sync_binlog", "must be 0 or 1");
    only_on("zookeeper_force_sync", s.durability.zookeeper_force_sync != defaults.zookeeper_force_sync, {"zookeeper"});
    const std::vector<std::string> mariadb{"mysql-single", "mysql-replicated"};
    only_on("mariadb_flush_log_at_trx_commit", flush != defaults.mariadb_flush_log_at_trx_commit, mariadb);
    only_on("mariadb_sync_binlog", s.durability.mariadb_sync_binlog != defaults.mariadb_sync_binlog, mariadb);
    only_on("mariadb_doublewrite", s.durability.mariadb_doublewrite != defaults.mariadb_doublewrite, mariadb);
    only_on("etcd_fsync", s.durability.etcd_fsync != defaults.etcd_fsync, {"etcd"});
    only_on("redis_aof_load_truncated", s.durability.redis_aof_load_truncated != defaults.redis_aof_load_truncated,
            {"redis-single", "redis-independent", "redis-sentinel"});
}

/// Asks the recipe (when built in), the topology and every fault of the
/// nemesis whether they can run the spec together.
void check_combination(const RunPlan& plan, const Fail& fail) {
    const Spec& s = plan.spec;
    const SpecView view{s.recipe, s.topology, s.ttl_ms, s.nodes, s.nemesis, s.recipe_options, s.fault_options};
    std::vector<std::function<SpecVerdict(const SpecView&)>> judges;
    if (plan.recipe) judges.push_back(plan.recipe->refuses);
    judges.push_back(plan.topology->refuses);
    for (const auto& fault : plan.faults) judges.push_back(fault.descriptor->refuses);
    for (const auto& refuses : judges)
        if (refuses)
            if (const auto refusal = refuses(view)) fail(refusal->field, refusal->reason);
}

/// The checks of the fields that name no registry entry: persistence, the
/// durability settings, who times a hold, the network.
void check_plain_values(const Spec& s, const Fail& fail) {
    if (s.persistence != "none" && s.persistence != "everysec" && s.persistence != "always")
        fail("persistence", "must be none, everysec or always");
    check_durability(s, fail);
    if (s.hold_timed_by != "controller" && s.hold_timed_by != "client")
        fail("hold_timed_by", "must be controller or client");
    if (s.hold_timed_by == "client" && s.hold_ms.max >= s.op_timeout_ms)
        fail("hold_ms", "must end before op_timeout_ms (" + std::to_string(s.op_timeout_ms) +
                            ") when the client times its holds: the hold is one op");
    if (s.network != "auto" && s.network != "netns" && s.network != "loopback")
        fail("network", "must be auto, netns or loopback");
}

/// Checks the runtime and the fields that apply to one runtime only; returns it.
const NodeRuntimeDescriptor* checked_runtime(const Spec& s, const Fail& fail) {
    const NodeRuntimeDescriptor* runtime = find_node_runtime(s.runtime);
    if (!runtime)
        fail("runtime", "names no known runtime ('" + s.runtime + "'); the runtimes are " + node_runtime_names());
    if (!s.image.empty() && s.runtime != "docker")
        fail("image", "applies only to runtime docker (this spec's runtime is " + s.runtime + ")");
    if (!s.hosts.empty() && s.runtime != "ssh")
        fail("hosts", "applies only to runtime ssh (this spec's runtime is " + s.runtime + ")");
    if (s.hosts.empty() && s.runtime == "ssh") fail("hosts", "is required by runtime ssh (or flag --hosts)");
    return runtime;
}

/// Every fault of the nemesis, known, with its options resolved against the
/// spec's ttl_ms (checked already, check_fault_options).
std::vector<ResolvedFault> checked_faults(const Spec& s, const Fail& fail) {
    std::vector<ResolvedFault> faults;
    for (const auto& kind : s.nemesis) {
        const FaultDescriptor* fault = find_fault(kind);
        if (!fault) {
            std::string known;
            for (const auto& descriptor : fault_descriptors()) known += (known.empty() ? "" : ", ") + descriptor.name;
            fail("nemesis", "names no known fault ('" + kind + "'); the faults are " + known);
        }
        faults.push_back(resolve_fault(*fault, s.fault_options, OptionContext{s.ttl_ms}));
    }
    return faults;
}

/// What the plan's faults need of the run, and the topology's size.
void resolve_needs(RunPlan& plan) {
    TopologyOptions sized;
    sized.name = plan.spec.topology;
    sized.node_count = plan.spec.nodes;
    plan.node_count = plan.topology->node_count(sized);
    const auto first = [&](const FaultDescriptor*& slot, const FaultDescriptor& fault, bool needs) {
        if (needs && !slot) slot = &fault;
    };
    for (const auto& resolved : plan.faults) {
        const FaultDescriptor& fault = *resolved.descriptor;
        first(plan.node_clock_fault, fault, fault.needs_clock_library);
        first(plan.worker_clock_fault, fault, fault.needs_worker_clock_library);
        first(plan.unsynced_data_fault, fault, fault.needs_unsynced_data);
        plan.needs_proxy = plan.needs_proxy || fault.needs_proxy;
        plan.cuts_peers = plan.cuts_peers || fault.cuts_peers;
    }
}

/// A fault must end before the controller gives up on a worker it holds
/// still (op_timeout_ms); without a fault the rule has nothing to judge. A
/// duration the spec does not set comes from ttl_ms, and the refusal says so.
void check_fault_duration(const Spec& s, const Fail& fail) {
    const Range duration = s.fault_duration();
    // An explicit schedule's durations are its events' (check_schedule).
    if (s.nemesis.empty() || s.schedule || duration.max < s.op_timeout_ms) return;
    const std::string timeout = std::to_string(s.op_timeout_ms);
    const std::string rule = "must stay below op_timeout_ms (" + timeout +
                             " ms), or the controller would give up on a worker a fault holds still";
    if (s.fault_duration_ms)
        fail("fault_duration_ms", rule + ": lower its max (" + std::to_string(duration.max) + " ms) below " + timeout +
                                      ", or raise op_timeout_ms");
    // The user never set fault_duration_ms: name the field they did set.
    fail("ttl_ms", "of " + std::to_string(s.ttl_ms) + " ms makes faults last 1.5 to 2.5 x ttl_ms = [" +
                       std::to_string(duration.min) + ", " + std::to_string(duration.max) +
                       "] ms (fault_duration_ms is not set), which must stay below op_timeout_ms (" + timeout +
                       " ms), or the controller would give up on a worker a fault holds still: lower ttl_ms, "
                       "raise op_timeout_ms, or set fault_duration_ms");
}

}  // namespace

std::string scenario_name_problem(const std::string& name) {
    const std::string rule = "must be 1 to " + std::to_string(spec_bounds::kMaxNameLength) +
                             " characters from A-Z a-z 0-9 . _ -, not starting with '.'";
    if (name.empty() || name.size() > spec_bounds::kMaxNameLength || name.front() == '.' ||
        !std::all_of(name.begin(), name.end(), is_name_character))
        return rule + " (it names the run directory), not " + shown(name);
    if (name == "latest" || name == "suites" || name == "compare")
        return "must not be '" + name + "': the store keeps its own entry of that name";
    return "";
}

RunPlan plan_run(Spec spec) {
    RunPlan plan;
    plan.spec = std::move(spec);
    const Spec& s = plan.spec;
    if (const auto problem = scenario_name_problem(s.name); !problem.empty())
        throw SpecError("spec: field 'name' " + problem);
    const Fail fail = [&](const std::string& field, const std::string& reason) {
        throw SpecError("spec " + s.name + ": field '" + field + "' " + reason);
    };
    check_bounds(s, fail);
    check_fault_options(s, fail);
    plan.topology = find_topology(s.topology);
    if (!plan.topology) fail("topology", "names no known topology ('" + s.topology + "')");
    plan.recipe = checked_recipe(s, fail);
    if (plan.recipe) plan.recipe_options = resolve_options(plan.recipe->options, s.recipe_options, OptionContext{});
    check_plain_values(s, fail);
    plan.runtime = checked_runtime(s, fail);
    plan.faults = checked_faults(s, fail);
    if (s.workers > 256) fail("workers", "must be at most 256");
    check_nodes(s, *plan.topology, fail);
    check_fault_duration(s, fail);
    check_combination(plan, fail);
    check_schedule(s, plan.faults, fail);
    resolve_needs(plan);
    return plan;
}

void validate(const Spec& spec) { plan_run(spec); }

}  // namespace lockcheck
