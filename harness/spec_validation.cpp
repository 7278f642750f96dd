#include "harness/spec.hpp"

#include <algorithm>
#include <stdexcept>

#include "clusters/topology.hpp"
#include "nemesis/fault_factory.hpp"
#include "workloads/recipes.hpp"

namespace lockcheck {

void validate(const Spec& s) {
    const auto fail = [&](const std::string& field, const std::string& reason) {
        throw SpecError("spec " + s.name + ": field '" + field + "' " + reason);
    };
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
    if (s.packet_loss > 1) fail("packet_loss", "must be a probability in (0, 1]");
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
