#include "harness/spec.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "clusters/topology.hpp"
#include "nemesis/fault_factory.hpp"
#include "workloads/recipes.hpp"

namespace lockcheck {
namespace {

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
void check_bounds(const Spec& s, const std::function<void(const std::string&, const std::string&)>& fail) {
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
    if (!(s.packet_loss > 0 && s.packet_loss <= 1)) fail("packet_loss", "must be a probability in (0, 1]");
    const auto ttl_factor = [&](const char* field, const TtlTime& t) {
        if (t.ttl_factor && !(std::fabs(*t.ttl_factor) <= kMaxTtlFactor))
            fail(field, "must be at most " + std::to_string(static_cast<int>(kMaxTtlFactor)) + "xttl");
    };
    ttl_factor("restart_delay_ms", s.restart_delay_ms);
    if (const auto delay = s.restart_delay_ms.resolve(s.ttl_ms); delay < 0 || delay > kMaxDurationMs)
        fail("restart_delay_ms", "must come to at most " + std::to_string(kMaxDurationMs) + " ms (1 hour), not " +
                                     std::to_string(delay));
    ttl_factor("clock_skew_ms", s.clock_skew_ms);
    if (const auto skew = s.clock_skew_ms.resolve(s.ttl_ms); skew < -kMaxClockSkewMs || skew > kMaxClockSkewMs)
        fail("clock_skew_ms", "must come to at most " + std::to_string(kMaxClockSkewMs) + " ms (1 day) either way");
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

void validate(const Spec& s) {
    if (const auto problem = scenario_name_problem(s.name); !problem.empty())
        throw SpecError("spec: field 'name' " + problem);
    const std::function<void(const std::string&, const std::string&)> fail = [&](const std::string& field,
                                                                                 const std::string& reason) {
        throw SpecError("spec " + s.name + ": field '" + field + "' " + reason);
    };
    check_bounds(s, fail);
    const auto topologies = topology_names();
    if (std::find(topologies.begin(), topologies.end(), s.topology) == topologies.end())
        fail("topology", "names no known topology ('" + s.topology + "')");
    if (!s.client_cmd) {  // a user's client implements its own recipe; `recipe` is only its name then
        const RecipeInfo* recipe = find_recipe(s.recipe);
        if (!recipe) fail("recipe", "names no known recipe ('" + s.recipe + "'); `lockcheck list` shows them");
        if (std::find(recipe->topologies.begin(), recipe->topologies.end(), s.topology) == recipe->topologies.end())
            fail("topology", "'" + s.topology + "' cannot run recipe '" + s.recipe + "'");
        try {
            check_recipe_options(s.recipe, s.recipe_options);
        } catch (const std::invalid_argument& e) {
            fail("recipe_options", std::string("is not valid: ") + e.what());
        }
    }
    if (s.persistence != "none" && s.persistence != "everysec" && s.persistence != "always")
        fail("persistence", "must be none, everysec or always");
    if (s.network != "auto" && s.network != "netns" && s.network != "loopback")
        fail("network", "must be auto, netns or loopback");
    for (const auto& kind : s.nemesis)
        if (!is_fault_kind(kind)) fail("nemesis", "names no known fault ('" + kind + "')");
    if (s.workers > 256) fail("workers", "must be at most 256");
    if (s.nodes != 0 && s.topology != "redis-independent") fail("nodes", "applies to topology redis-independent only");
    if (s.nodes > 64) fail("nodes", "must be at most 64");
    if (s.recipe == "redlock" && !s.client_cmd && s.nodes != 0 && s.nodes < 3)
        fail("nodes", "must be at least 3 for redlock: with fewer, a majority is every node and one crash stops the lock");
    if (s.partition_mode != "isolate-one" && s.partition_mode != "isolate-primary" &&
        s.partition_mode != "majority-minority")
        fail("partition_mode", "must be isolate-one, isolate-primary or majority-minority");
    if (s.clock_skew_nodes > 2) fail("clock_skew_nodes", "must be 1 or 2");
    if (s.fault_duration().max >= s.op_timeout_ms)
        fail("fault_duration_ms", "must stay below op_timeout_ms, or paused workers would be given up on");
    if ((s.recipe == "zk-ephemeral" || s.recipe == "zk-sequential") && !s.client_cmd) {
        // The session is the lease: the servers grant at most maxSessionTimeout (docs/recipes/zk-ephemeral.md).
        if (s.ttl_ms > 60'000) fail("ttl_ms", "must be at most 60000 for ZooKeeper recipes (the servers' maxSessionTimeout)");
        if (s.recipe_options.value("session_timeout_ms", s.ttl_ms) < s.ttl_ms)
            fail("recipe_options", "session_timeout_ms must be >= ttl_ms: a shorter session would end the lease early");
    }
    if (s.topology == "etcd" && std::find(s.nemesis.begin(), s.nemesis.end(), "clock-skew") != s.nemesis.end())
        fail("nemesis", "cannot use clock-skew on topology etcd: etcd is Go and reads time from the vDSO, which no "
                        "LD_PRELOAD clock library reaches");
}

}  // namespace lockcheck
