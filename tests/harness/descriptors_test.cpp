// The registries of topologies, recipes and faults: names listed once, option
// fields that cannot collide, defaults their own checks accept, and the
// failover fault reaching a topology through Topology::failover_control().
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>

#include "clusters/runtimes/node_runtime_registry.hpp"
#include "clusters/topologies/topology_registry.hpp"
#include "spec/run_plan.hpp"
#include "spec/spec.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/fault_registry.hpp"
#include "recipes/recipe_registry.hpp"

using namespace lockcheck;

namespace {

template <typename Descriptors>
bool names_unique(const Descriptors& all) {
    std::set<std::string> names;
    for (const auto& d : all)
        if (!names.insert(d.name).second) return false;
    return !names.empty();
}

}  // namespace

TEST(Registries, EveryNameIsListedOnce) {
    EXPECT_TRUE(names_unique(topology_descriptors()));
    EXPECT_TRUE(names_unique(recipe_descriptors()));
    EXPECT_TRUE(names_unique(fault_descriptors()));
    EXPECT_TRUE(names_unique(node_runtime_descriptors()));
    EXPECT_EQ(find_node_runtime(kDefaultNodeRuntime)->name, "netns");
    EXPECT_EQ(find_node_runtime("vm"), nullptr);
    EXPECT_EQ(find_topology("etcd")->name, "etcd");
    EXPECT_EQ(find_recipe("redlock")->name, "redlock");
    EXPECT_EQ(find_fault("kill-restart")->name, "kill-restart");
    EXPECT_EQ(find_fault("meteor"), nullptr);
}

TEST(Registries, RecipesRunOnRegisteredTopologies) {
    for (const auto& recipe : recipe_descriptors()) {
        EXPECT_FALSE(recipe.topologies.empty()) << recipe.name;
        for (const auto& topology : recipe.topologies) EXPECT_NE(find_topology(topology), nullptr) << recipe.name;
    }
}

TEST(Registries, FaultOptionsAreTopLevelFieldsNoOtherFieldUses) {
    Spec without_faults;
    without_faults.fault_options = nlohmann::json::object();
    const nlohmann::json generic = spec_to_json(without_faults);
    std::map<std::string, const OptionDescriptor*> seen;
    for (const auto& fault : fault_descriptors())
        for (const auto& option : fault.options) {
            // Faults may share a field (kill-restart's and power-loss's
            // restart_delay_ms), but only as one and the same option.
            if (const auto [it, fresh] = seen.emplace(option.name, &option); !fresh) {
                EXPECT_EQ(it->second->description, option.description) << option.name << " is declared twice";
                EXPECT_EQ(it->second->default_value, option.default_value) << option.name << " is declared twice";
                EXPECT_EQ(it->second->form, option.form) << option.name << " is declared twice";
            }
            EXPECT_FALSE(generic.contains(option.name)) << option.name << " is a spec field of its own";
        }
    std::set<std::string> names;
    for (const auto& [name, option] : seen) names.insert(name);
    EXPECT_EQ(names, (std::set<std::string>{"restart_delay_ms", "power_loss_nodes", "power_loss_after_grant_ms", "torn_write_keeps",
                                            "partition_mode", "packet_loss", "clock_skew_ms", "clock_skew_nodes",
                                            "clock_skew_clocks", "clock_skew_mode", "clock_rate", "clock_strobe_ms",
                                            "delay_ms", "delay_jitter_ms", "delay_nodes", "slow_reply_ms", "slow_reply_target", "bandwidth_bytes_per_s",
                                            "pause_node_target", "pause_client_target", "pause_client_waiting_for_ms", "client_clock_target",
                                            "kill_holder_target", "kill_holder_acquiring_wait_ms",
                                            "client_partition_mode", "client_clock_skew_ms", "client_clock_skew_clocks",
                                            "client_clock_skew_mode", "client_clock_rate", "client_clock_strobe_ms",
                                            "kill_restart_nodes", "corrupt_file", "corrupt_action", "corrupt_records",
                                            "corrupt_bytes", "corrupt_end_offset", "corrupt_bits",
                                            "corrupt_copy_age_ms", "disk_error_op"}));
}

TEST(Registries, ACountOptionIsAnIntegerOptionOfItsFaultDefaultingToOne) {
    int with_count = 0;
    for (const auto& fault : fault_descriptors()) {
        if (fault.count_option.empty()) continue;
        ++with_count;
        const OptionDescriptor* option = find_option(fault.options, fault.count_option);
        ASSERT_NE(option, nullptr) << fault.name << ": count_option names none of its options";
        EXPECT_EQ(option->default_value, 1) << fault.name << ": one target per event unless asked";
    }
    EXPECT_GE(with_count, 1) << "kill-restart's kill_restart_nodes";
}

TEST(Registries, EveryDefaultPassesItsOwnCheck) {
    for (const auto& fault : fault_descriptors())
        for (const auto& option : fault.options)
            EXPECT_EQ(option_problem(option, option.default_value, OptionContext{1000}), std::nullopt) << option.name;
    for (const auto& recipe : recipe_descriptors())
        for (const auto& option : recipe.options) {
            if (option.default_value.is_null()) continue;
            EXPECT_EQ(option_problem(option, option.default_value, OptionContext{}), std::nullopt) << option.name;
        }
}

TEST(Registries, RecipeFactoriesGetTheirDefaults) {
    const auto& stock = *find_recipe("mysql-stock-decrement");
    EXPECT_EQ(resolve_options(stock.options, nlohmann::json::object(), {}), (nlohmann::json{{"stock", 100}}));
    const auto& zk = *find_recipe("zk-ephemeral");
    EXPECT_EQ(resolve_options(zk.options, nlohmann::json::object(), {}), nlohmann::json::object())
        << "no default: the session follows ttl_ms";
}

TEST(FaultOptions, ResolveAgainstTheLease) {
    const auto& skew = *find_fault("clock-skew");
    EXPECT_EQ(fault_options_for(skew, default_fault_options(), OptionContext{1500}),
              (nlohmann::json{{"clock_skew_ms", 3000},
                              {"clock_skew_nodes", 1},
                              {"clock_skew_clocks", "realtime"},
                              {"clock_skew_mode", "jump"},
                              {"clock_rate", 1.5},
                              {"clock_strobe_ms", 375}}));
    EXPECT_EQ(default_fault_options()["clock_skew_ms"], "2xttl") << "stored as the spec writes it";
}

namespace {

class NoServers : public Topology {
public:
    void start() override {}
    void stop() override {}
    std::vector<Node*> nodes() override { return {}; }
    std::vector<std::string> client_endpoints() const override { return {}; }
};

class PromotedOnRequest : public NoServers, public PrimaryPromotion {
public:
    void promote(Node&) override {}
    void fence(Node&) override {}
    FailoverControl failover_control() override { return {.promotion = this}; }
};

class ElectsItsOwn : public NoServers, public PrimaryElection {
public:
    bool settled_on(Node&) override { return true; }
    FailoverControl failover_control() override { return {.election = this}; }
};

class NoWorkers : public WorkerControl {
public:
    std::vector<int> holders() const override { return {}; }
    bool pause_worker(int) override { return false; }
    void resume_worker(int) override {}
};

/// The error of building fault `kind` on `topology`, or "" when it builds.
std::string fault_error(const std::string& kind, Topology& topology, bool namespaces) {
    NoWorkers workers;
    try {
        const auto faults =
            make_faults({kind}, {workers, topology, namespaces}, default_fault_options(), OptionContext{1000});
        EXPECT_EQ(faults.at(kind)->kind(), kind);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(FaultFactory, FailoverFollowsTheTopologysFailoverControl) {
    NoServers single;
    EXPECT_EQ(fault_error("failover", single, true),
              "fault 'failover' is unavailable here: it needs topology redis-sentinel or mysql-replicated");
    PromotedOnRequest managed;
    EXPECT_EQ(fault_error("failover", managed, false),
              "fault 'failover' is unavailable here: it needs network namespaces (run as root)");
    EXPECT_EQ(fault_error("failover", managed, true), "");
    ElectsItsOwn elected;
    EXPECT_EQ(fault_error("failover", elected, true), "");
    EXPECT_EQ(fault_error("meteor", single, true), "unknown fault 'meteor'");
}

// The run makes its schedule's faults from its plan (spec/run_plan.hpp), not by name.
TEST(FaultFactory, ScheduleFaultsComeFromThePlansDescriptors) {
    const RunPlan plan = plan_run(spec_from_json({{"nemesis", {"pause-holder", "kill-restart"}}}, "t"));
    NoWorkers workers;
    NoServers topology;
    const FaultTargets targets{workers, topology, true};
    const auto event = [](int id, const std::string& kind, nlohmann::json options) {
        FaultEvent e;
        e.id = id;
        e.kind = kind;
        e.options = std::move(options);
        return e;
    };
    const FaultEvent pause = event(1, "pause-holder", nullptr);
    const FaultEvent kill = event(2, "kill-restart", plan.faults[1].stored_options);
    const FaultEvent slow_restart = event(3, "kill-restart", {{"restart_delay_ms", 50}});
    const auto faults =
        make_schedule_faults({pause, kill, kill, slow_restart}, targets, plan.faults, {plan.spec.ttl_ms});
    ASSERT_EQ(faults.size(), 3u) << "one instance per kind and options";
    EXPECT_EQ(faults.at(fault_instance_key(pause))->kind(), "pause-holder");
    EXPECT_EQ(faults.at(fault_instance_key(kill))->kind(), "kill-restart");
    EXPECT_EQ(faults.at(fault_instance_key(slow_restart))->kind(), "kill-restart");
    const FaultEvent outside = event(4, "clock-skew", nullptr);
    try {
        make_schedule_faults({outside}, targets, plan.faults, {plan.spec.ttl_ms});
        ADD_FAILURE() << "a fault the plan does not hold was made";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "unknown fault 'clock-skew'");
    }
}
