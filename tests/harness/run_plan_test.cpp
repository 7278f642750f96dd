// The run's plan (spec/run_plan.hpp): a valid spec resolved once into the
// registry entries its names stand for, their options resolved and what the
// run needs; an invalid one refused with validate()'s message. The faults a
// schedule makes from the plan: tests/harness/descriptors_test.cpp.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "clusters/runtimes/node_runtime_registry.hpp"
#include "clusters/topologies/topology_registry.hpp"
#include "nemesis/fault_registry.hpp"
#include "recipes/recipe_registry.hpp"
#include "spec/run_plan.hpp"

using namespace lockcheck;

namespace {

/// The SpecError message of `attempt`, or "" when it throws none.
template <typename F>
std::string spec_error(F attempt) {
    try {
        attempt();
    } catch (const SpecError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(RunPlan, ResolvesTheTopologyRecipeAndFaultsOnce) {
    const Spec spec = spec_from_json({{"recipe", "redis-setnx-expire"},
                                      {"topology", "redis-single"},
                                      {"ttl_ms", 1500},
                                      {"nemesis", {"clock-skew", "delay"}},
                                      {"clock_skew_ms", "3xttl"}},
                                     "t");
    const RunPlan plan = plan_run(spec);
    EXPECT_EQ(plan.spec.name, spec.name);
    EXPECT_EQ(plan.topology, find_topology("redis-single")) << "the registry's entry, not a copy";
    EXPECT_EQ(plan.recipe, find_recipe("redis-setnx-expire"));
    EXPECT_EQ(plan.runtime, find_node_runtime("netns"));
    EXPECT_EQ(plan.recipe_options,
              resolve_options(find_recipe("redis-setnx-expire")->options, nlohmann::json::object(), OptionContext{}))
        << "the recipe's defaults filled in";
    EXPECT_FALSE(plan.recipe_options.empty());
    ASSERT_EQ(plan.faults.size(), 2u);
    EXPECT_EQ(plan.faults[0].descriptor, find_fault("clock-skew")) << "in the nemesis's order";
    EXPECT_EQ(plan.faults[1].descriptor, find_fault("delay"));
    EXPECT_EQ(plan.faults[0].stored_options.at("clock_skew_ms"), "3xttl") << "as the spec stores it";
    EXPECT_EQ(plan.faults[0].options.at("clock_skew_ms"), 4500) << "resolved against ttl_ms";
    EXPECT_EQ(plan.faults[0].options, fault_options_for(*find_fault("clock-skew"), spec.fault_options, {1500}));
    EXPECT_EQ(plan.faults[1].stored_options, options_of_fault("delay", spec.fault_options));
    EXPECT_FALSE(plan.faults[0].stored_options.contains("delay_ms")) << "each fault holds its own options only";
    EXPECT_EQ(plan.node_count, 1);
    EXPECT_EQ(plan.node_clock_fault, find_fault("clock-skew"));
    EXPECT_EQ(plan.worker_clock_fault, nullptr);
    EXPECT_EQ(plan.unsynced_data_fault, nullptr);
    EXPECT_TRUE(plan.needs_proxy) << "delay acts through the fault proxy";
    EXPECT_FALSE(plan.cuts_peers);
}

TEST(RunPlan, SaysWhatTheFaultsNeedOfTheRun) {
    const RunPlan plan =
        plan_run(spec_from_json({{"recipe", "zk-sequential"},
                                 {"topology", "zookeeper"},
                                 {"nemesis", {"partition", "power-loss", "client-clock-skew", "kill-restart"}}},
                                "t"));
    EXPECT_EQ(plan.node_count, 3);
    EXPECT_EQ(plan.node_clock_fault, nullptr);
    EXPECT_EQ(plan.worker_clock_fault, find_fault("client-clock-skew"));
    EXPECT_EQ(plan.unsynced_data_fault, find_fault("power-loss"));
    EXPECT_TRUE(plan.cuts_peers);
    EXPECT_FALSE(plan.needs_proxy);
    EXPECT_EQ(plan_run(spec_from_json({{"recipe", "redlock"}, {"topology", "redis-independent"}, {"nodes", 7}}, "t"))
                  .node_count,
              7)
        << "the topology's size with the spec's nodes";
    const RunPlan none = plan_run(spec_from_json({{"nemesis", nlohmann::json::array()}}, "t"));
    EXPECT_TRUE(none.faults.empty());
    EXPECT_FALSE(none.needs_proxy || none.cuts_peers || none.node_clock_fault || none.unsynced_data_fault);
}

TEST(RunPlan, AUsersClientHasNoRecipeDescriptor) {
    const RunPlan plan = plan_run(spec_from_json({{"client_cmd", "./my-client"}, {"recipe", "my-lock"}}, "t"));
    EXPECT_EQ(plan.recipe, nullptr);
    EXPECT_EQ(plan.recipe_options, nlohmann::json::object());
    EXPECT_EQ(plan.topology, find_topology("redis-single"));
}

TEST(RunPlan, AnInvalidSpecIsRefusedAsValidateRefusesIt) {
    for (const nlohmann::json& invalid :
         {nlohmann::json{{"nemesis", {"pause-holder", "meteor"}}}, nlohmann::json{{"topology", "cassandra"}},
          nlohmann::json{{"recipe", "zk-sequential"}}, nlohmann::json{{"workers", 300}},
          nlohmann::json{{"runtime", "vm"}},
          nlohmann::json{{"recipe", "redlock"}, {"topology", "redis-independent"}, {"nodes", 2}}}) {
        const Spec spec = spec_from_json(invalid, "t");
        const std::string refused = spec_error([&] { plan_run(spec); });
        EXPECT_NE(refused, "") << invalid.dump();
        EXPECT_EQ(refused, spec_error([&] { validate(spec); })) << invalid.dump();
    }
    EXPECT_NE(spec_error([] {
                  plan_run(spec_from_json({{"nemesis", {"meteor"}}}, "t"));
              }).find("field 'nemesis' names no known fault ('meteor')"),
              std::string::npos);
}
