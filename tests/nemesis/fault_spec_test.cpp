// The spec fields of the server faults (restart_delay_ms, partition_mode,
// packet_loss, clock_skew_ms, clock_skew_nodes, nodes) and how a run turns
// them into the options each fault is built with and topology options.
#include <gtest/gtest.h>

#include <fstream>

#include "run/run_setup.hpp"
#include "spec/run_plan.hpp"
#include "spec/spec.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/fault_registry.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/spec_test_support.hpp"

using namespace lockcheck;

namespace {
const auto error_of = lockcheck::testing::spec_error_of;

/// Option `option` as fault `fault` of a run of `spec` is built with.
nlohmann::json built_with(const Spec& spec, const std::string& fault, const std::string& option) {
    return fault_options_for(*find_fault(fault), spec.fault_options, OptionContext{spec.ttl_ms}).at(option);
}
}  // namespace

TEST(FaultSpec, RestartDelayIsMillisecondsOrAMultipleOfTheTtl) {
    Spec ms = spec_from_json({{"ttl_ms", 2000}, {"restart_delay_ms", 250}}, "t");
    EXPECT_EQ(built_with(ms, "kill-restart", "restart_delay_ms"), 250);
    Spec times = spec_from_json({{"ttl_ms", 2000}, {"restart_delay_ms", "1.5xttl"}}, "t");
    EXPECT_EQ(built_with(times, "kill-restart", "restart_delay_ms"), 3000);
    EXPECT_EQ(spec_to_json(times)["restart_delay_ms"], "1.5xttl") << "the resolved spec keeps the multiple";
    EXPECT_EQ(built_with(spec_from_json(spec_to_json(times), "t"), "kill-restart", "restart_delay_ms"), 3000);
}

TEST(FaultSpec, BadDelaysAreNamed) {
    const std::string message =
        "spec t.json: field 'restart_delay_ms' must be milliseconds (an integer >= 0) or a "
        "finite multiple of the TTL like \"2xttl\"";
    EXPECT_EQ(error_of({{"restart_delay_ms", "2xfoo"}}), message);
    EXPECT_EQ(error_of({{"restart_delay_ms", "xttl"}}), message);
    EXPECT_EQ(error_of({{"restart_delay_ms", -5}}), message);
    EXPECT_EQ(error_of({{"restart_delay_ms", "2xttlx"}}), message);
}

TEST(FaultSpec, KillRestartNodesIsAPositiveIntegerDefaultingToOne) {
    EXPECT_EQ(built_with(spec_from_json(nlohmann::json::object(), "t"), "kill-restart", "kill_restart_nodes"), 1);
    EXPECT_EQ(built_with(spec_from_json({{"kill_restart_nodes", 3}}, "t"), "kill-restart", "kill_restart_nodes"), 3);
    for (const nlohmann::json& bad : {nlohmann::json(0), nlohmann::json(-2), nlohmann::json(1.5), nlohmann::json("3")})
        EXPECT_EQ(error_of({{"kill_restart_nodes", bad}}), "spec t.json: field 'kill_restart_nodes' must be an integer >= 1")
            << bad;
    EXPECT_EQ(find_fault("kill-restart")->count_option, "kill_restart_nodes") << "the shrink's merge step may join its events";
}

TEST(FaultSpec, ClockSkewDefaultsToTwiceTheTtlAndMayGoBack) {
    EXPECT_EQ(built_with(spec_from_json({{"ttl_ms", 1500}}, "t"), "clock-skew", "clock_skew_ms"), 3000);
    EXPECT_EQ(built_with(spec_from_json({{"clock_skew_ms", -400}}, "t"), "clock-skew", "clock_skew_ms"), -400);
    EXPECT_NE(error_of({{"clock_skew_nodes", 3}}).find("field 'clock_skew_nodes' must be 1 or 2"), std::string::npos);
}

TEST(FaultSpec, PartitionModeLossAndNodesAreChecked) {
    EXPECT_NE(error_of({{"partition_mode", "split-brain"}}).find("field 'partition_mode' must be isolate-one"),
              std::string::npos);
    EXPECT_NE(error_of({{"packet_loss", 1.5}}).find("field 'packet_loss'"), std::string::npos);
    EXPECT_NE(error_of({{"nodes", 3}}).find("field 'nodes' applies to topology redis-independent only"),
              std::string::npos);
    EXPECT_EQ(error_of({{"recipe", "redlock"}, {"topology", "redis-independent"}, {"nodes", 3}}), "");
    EXPECT_EQ(built_with(spec_from_json({{"partition_mode", "majority-minority"}}, "t"), "partition", "partition_mode"),
              "majority-minority");
}

TEST(FaultSpec, TopologyOptionsCarryNodesAndTheClockLibraryOnlyForClockSkew) {
    Spec s = spec_from_json({{"recipe", "redlock"}, {"topology", "redis-independent"}, {"nodes", 3}}, "t");
    auto options = topology_options_for(plan_run(s), "/tmp/nodes", "/nonexistent/lockcheck");
    EXPECT_EQ(options.node_count, 3);
    EXPECT_FALSE(options.clock_library);
    s.nemesis = {"clock-skew"};
    EXPECT_THROW(topology_options_for(plan_run(s), "/tmp/nodes", "/nonexistent/lockcheck"), std::runtime_error)
        << "clock-skew without libclockshift.so beside the binary is an error, not a silent no-op";
}

TEST(FaultSpec, ClockSkewNeedsTheClockLauncherBesideTheLibrary) {
    lockcheck::testing::ScratchDir dir("clock-launcher");
    std::ofstream(dir.path() / "libclockshift.so") << "";
    Spec s = spec_from_json({{"nemesis", {"clock-skew"}}}, "t");
    try {
        topology_options_for(plan_run(s), dir.path() / "nodes", dir.path() / "lockcheck");
        ADD_FAILURE() << "a static server would keep its real clock: the run must refuse";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("lockcheck-clock-launch beside the clock library"), std::string::npos)
            << e.what();
    }
    std::ofstream(dir.path() / "lockcheck-clock-launch") << "";
    EXPECT_EQ(topology_options_for(plan_run(s), dir.path() / "nodes", dir.path() / "lockcheck").clock_library,
              dir.path() / "libclockshift.so");
}

TEST(FaultSpec, ClockSkewRunsOnEtcd) {
    EXPECT_EQ(
        error_of({{"recipe", "etcd-lease-lock"}, {"topology", "etcd"}, {"nemesis", {"pause-holder", "clock-skew"}}}),
        "")
        << "the clock library reaches Go through the vDSO";
}

TEST(FaultSpec, AMonotonicClockNeverGoesBack) {
    const auto back =
        error_of({{"nemesis", {"clock-skew"}}, {"clock_skew_clocks", "monotonic"}, {"clock_skew_ms", -100}});
    EXPECT_NE(back.find("field 'clock_skew_ms' must not be negative when clock_skew_clocks moves the monotonic clock"),
              std::string::npos)
        << back;
    EXPECT_NE(error_of({{"nemesis", {"client-clock-skew"}},
                        {"client_clock_skew_clocks", "both"},
                        {"client_clock_skew_ms", "-1xttl"}})
                  .find("field 'client_clock_skew_ms'"),
              std::string::npos);
    const auto strobe =
        error_of({{"nemesis", {"clock-skew"}}, {"clock_skew_clocks", "both"}, {"clock_skew_mode", "strobe"}});
    EXPECT_NE(strobe.find("field 'clock_skew_mode' cannot be strobe"), std::string::npos) << strobe;
    EXPECT_EQ(error_of({{"nemesis", {"clock-skew"}},
                        {"clock_skew_clocks", "monotonic"},
                        {"clock_skew_mode", "drift"},
                        {"clock_rate", 0.5}}),
              "")
        << "a slow clock still goes forward";
    EXPECT_EQ(error_of({{"nemesis", {"clock-skew"}}, {"clock_skew_ms", -100}, {"clock_skew_mode", "strobe"}}), "")
        << "the wall clock may go back";
}

TEST(FaultSpec, ClockOptionsHaveTheirBounds) {
    EXPECT_NE(error_of({{"clock_rate", 0.05}}).find("field 'clock_rate' must be a number in [0.1, 10]"),
              std::string::npos);
    EXPECT_NE(error_of({{"client_clock_rate", "fast"}}).find("field 'client_clock_rate'"), std::string::npos);
    EXPECT_NE(error_of({{"clock_skew_mode", "warp"}}).find("must be jump, drift or strobe"), std::string::npos);
    EXPECT_NE(error_of({{"clock_skew_clocks", "cpu"}}).find("must be realtime, monotonic or both"), std::string::npos);
    EXPECT_NE(error_of({{"clock_strobe_ms", 5}}).find("field 'clock_strobe_ms'"), std::string::npos);
    EXPECT_EQ(built_with(spec_from_json({{"clock_rate", 0.5}}, "t"), "clock-skew", "clock_rate"), 0.5);
}

TEST(FaultSpec, ADefaultOfAFaultNotInjectedIsNoReasonToRefuseATinyTtl) {
    EXPECT_EQ(error_of({{"ttl_ms", 1}, {"nemesis", {"pause-holder"}}}), "")
        << "clock_strobe_ms defaults to 0.25xttl, 0 ms here, but no clock moves";
    const auto used = error_of({{"ttl_ms", 1}, {"nemesis", {"clock-skew"}}});
    EXPECT_NE(used.find("field 'clock_strobe_ms' must come to 10 ms to 1 day (0.25xttl of ttl_ms 1 is 0 ms)"),
              std::string::npos)
        << "the fault is injected: its default is checked, and the refusal says it came from ttl_ms: " << used;
    EXPECT_NE(error_of({{"ttl_ms", 1}, {"nemesis", {"pause-holder"}}, {"clock_strobe_ms", "0.5xttl"}})
                  .find("field 'clock_strobe_ms'"),
              std::string::npos)
        << "a value the spec set is checked whether its fault is injected or not";
}

TEST(FaultSpec, OnlyPowerLossPutsTheNodesOnTheLoseUnsyncedFilesystem) {
    Spec s =
        spec_from_json({{"recipe", "zk-sequential"}, {"topology", "zookeeper"}, {"zookeeper_force_sync", false}}, "t");
    s.nemesis = {"kill-restart"};
    auto options = topology_options_for(plan_run(s), "/tmp/nodes", "/opt/lockcheck/lockcheck");
    EXPECT_FALSE(options.unsynced_data) << "a run without power-loss mounts nothing";
    EXPECT_FALSE(options.durability.zookeeper_force_sync) << "the spec's durability reaches the topology";
    EXPECT_EQ(host_refusal(plan_run(s), "/opt/lockcheck/lockcheck"), std::nullopt);
    s.nemesis = {"kill-restart", "power-loss"};
    options = topology_options_for(plan_run(s), "/tmp/nodes", "/opt/lockcheck/lockcheck");
    ASSERT_TRUE(options.unsynced_data);
    EXPECT_TRUE(options.unsynced_data->daemon.empty()) << "no lockcheck-unsyncedfs beside this binary";
    const auto refusal = host_refusal(plan_run(s), "/opt/lockcheck/lockcheck");
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->rfind("fault power-loss cannot run here: the lose-unsynced filesystem is unavailable: ", 0), 0u)
        << *refusal;
}

TEST(FaultSpec, CorruptFileOptionsAreCheckedOneLineEach) {
    const nlohmann::json base = {{"name", "t"}, {"nemesis", nlohmann::json::array({"corrupt-file"})}, {"persistence", "always"}};
    auto with = [&](const nlohmann::json& more) {
        nlohmann::json spec = base;
        spec.update(more);
        return error_of(spec);
    };
    EXPECT_EQ(with(nlohmann::json::object()), "") << "the defaults: the log, its last record cut";
    EXPECT_EQ(with({{"corrupt_action", "shred"}}),
              "spec t: field 'corrupt_action' must be cut-records, cut-bytes, zero, flip-bits or older-copy");
    EXPECT_EQ(with({{"corrupt_bytes", 0}}), "spec t.json: field 'corrupt_bytes' must be an integer in [1, 1073741824]");
    EXPECT_EQ(with({{"corrupt_bits", 5000}}), "spec t.json: field 'corrupt_bits' must be an integer in [1, 4096]");
    EXPECT_NE(with({{"corrupt_file", "wal"}}).find("spec t: field 'corrupt_file' must be log, aof-incr"),
              std::string::npos);
    EXPECT_EQ(with({{"corrupt_file", "etcd-wal"}}),
              "spec t: field 'corrupt_file' names etcd-wal, which topology redis-single's servers do not keep "
              "(they keep aof-incr, aof-base or rdb)");
    EXPECT_EQ(with({{"corrupt_file", "aof-base"}}),
              "spec t: field 'corrupt_action' cut-records needs a file whose records lockcheck can tell apart, "
              "and aof-base's it cannot: use cut-bytes");
    EXPECT_EQ(with({{"corrupt_file", "aof-base"}, {"corrupt_action", "flip-bits"}}), "");
    EXPECT_EQ(error_of({{"nemesis", nlohmann::json::array({"corrupt-file"})}, {"topology", "zookeeper"}, {"recipe", "zk-sequential"},
                        {"corrupt_action", "cut-bytes"}}),
              "")
        << "log: ZooKeeper's transaction log";
}

TEST(FaultSpec, CorruptFileIsBuiltWithItsOptionsResolved) {
    Spec s = spec_from_json({{"nemesis", nlohmann::json::array({"corrupt-file"})}, {"corrupt_action", "zero"}, {"corrupt_bytes", 4096},
                             {"restart_delay_ms", "0.5xttl"}, {"ttl_ms", 2000}},
                            "t");
    EXPECT_EQ(built_with(s, "corrupt-file", "corrupt_action"), "zero");
    EXPECT_EQ(built_with(s, "corrupt-file", "corrupt_bytes"), 4096);
    EXPECT_EQ(built_with(s, "corrupt-file", "corrupt_file"), "log");
    EXPECT_EQ(built_with(s, "corrupt-file", "restart_delay_ms"), 1000) << "the restart delay kill-restart has";
}

TEST(FaultSpec, CorruptFileStrikesAsManyNodesAsKillRestart) {
    const FaultDescriptor& corrupt = *find_fault("corrupt-file");
    EXPECT_EQ(corrupt.count_option, "kill_restart_nodes") << "the shrink's merge step may join its events";
    const OptionDescriptor* nodes = find_option(corrupt.options, "kill_restart_nodes");
    ASSERT_NE(nodes, nullptr);
    EXPECT_EQ(nodes->description, find_option(find_fault("kill-restart")->options, "kill_restart_nodes")->description)
        << "one and the same option as kill-restart's";
    const nlohmann::json base = {{"nemesis", nlohmann::json::array({"corrupt-file"})}};
    EXPECT_EQ(built_with(spec_from_json(base, "t"), "corrupt-file", "kill_restart_nodes"), 1);
    nlohmann::json three = base;
    three["kill_restart_nodes"] = 3;
    EXPECT_EQ(built_with(spec_from_json(three, "t"), "corrupt-file", "kill_restart_nodes"), 3);
    three["kill_restart_nodes"] = 0;
    EXPECT_EQ(error_of(three), "spec t.json: field 'kill_restart_nodes' must be an integer >= 1");
}
