// The power-loss fault without servers: which nodes each power_loss_nodes
// value strikes, its spec fields (the restart delay it shares with
// kill-restart, power_loss_after_grant_ms), the fresh grants
// power_loss_after_grant_ms waits for, and that it refuses to run where no
// node can lose power. Also which nodes one kill-restart event kills (the
// other crash fault, kill_restart_nodes), on the same five nodes, and
// torn-write, the power loss that tears unsynced writes (its option and kind),
// and disk-error, the disk that fails while the server runs (which errors
// each disk_error_op names, which node it strikes, its refusal).
#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <thread>

#include "clusters/runtimes/netns_runtime.hpp"
#include "clusters/topologies/topology.hpp"
#include "nemesis/disk_error.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/fault_registry.hpp"
#include "nemesis/kill_restart.hpp"
#include "nemesis/power_loss.hpp"
#include "spec/spec.hpp"
#include "tests/support/spec_test_support.hpp"
#include "workers/live_state.hpp"

using namespace lockcheck;

namespace {

/// Five nodes that are never started: only their identity matters here.
class FiveNodes : public ::testing::Test {
protected:
    FiveNodes() {
        for (int i = 1; i <= 5; ++i) {
            owned_.push_back(
                std::make_unique<Node>("n" + std::to_string(i),
                                       std::make_unique<NetnsRuntime>(NodePlacement{
                                           "n" + std::to_string(i), "127.0.0.1", std::nullopt, {}, "", {}, "", {}}),
                                       "/nonexistent", NodeProgram{}));
            nodes_.push_back(owned_.back().get());
        }
    }
    Node* n(int i) const { return nodes_[static_cast<std::size_t>(i - 1)]; }

    std::vector<std::unique_ptr<Node>> owned_;
    std::vector<Node*> nodes_;
};

/// A topology of the nodes above, none on the lose-unsynced filesystem.
class StaticTopology : public Topology {
public:
    explicit StaticTopology(std::vector<Node*> nodes) : nodes_(std::move(nodes)) {}
    void start() override {}
    void stop() override {}
    std::vector<Node*> nodes() override { return nodes_; }
    std::vector<std::string> client_endpoints() const override { return {}; }
    std::optional<std::vector<Node*>> lock_nodes() override { return nodes_; }

private:
    std::vector<Node*> nodes_;
};

class NoWorkers : public WorkerControl {
public:
    std::vector<int> holders() const override { return {}; }
    bool pause_worker(int) override { return false; }
    void resume_worker(int) override {}
};

TEST_F(FiveNodes, OneStrikesALockNodeChosenByPick) {
    const std::vector<Node*> lock{n(2), n(4), n(5)};
    EXPECT_EQ(power_loss_targets(PowerLoss::Reach::One, nodes_, lock, 0), (std::vector<Node*>{n(2)}));
    EXPECT_EQ(power_loss_targets(PowerLoss::Reach::One, nodes_, lock, 4), (std::vector<Node*>{n(4)}));
}

TEST_F(FiveNodes, MajorityTakesTheLockNodesFirstThenOthers) {
    EXPECT_EQ(power_loss_targets(PowerLoss::Reach::Majority, nodes_, {n(2), n(4), n(5)}, 1),
              (std::vector<Node*>{n(4), n(5), n(2)}));
    EXPECT_EQ(power_loss_targets(PowerLoss::Reach::Majority, nodes_, {n(3)}, 7), (std::vector<Node*>{n(3), n(1), n(2)}))
        << "a leader alone, then the first followers: a bare majority of five";
    EXPECT_EQ(power_loss_targets(PowerLoss::Reach::Majority, nodes_, nodes_, 0).size(), 3u);
}

TEST_F(FiveNodes, AllIsEveryCapableNode) {
    EXPECT_EQ(power_loss_targets(PowerLoss::Reach::All, nodes_, {n(1)}, 3), nodes_);
}

TEST_F(FiveNodes, LockNodesThatCannotLosePowerArePassedOver) {
    const std::vector<Node*> capable{n(1), n(2), n(3)};  // n4, n5: e.g. Sentinels
    EXPECT_EQ(power_loss_targets(PowerLoss::Reach::One, capable, {n(4), n(2)}, 0), (std::vector<Node*>{n(2)}));
    EXPECT_TRUE(power_loss_targets(PowerLoss::Reach::One, capable, {n(4), n(5)}, 0).empty());
    EXPECT_TRUE(power_loss_targets(PowerLoss::Reach::All, capable, {}, 0).empty()) << "no held lock, no power loss";
}

TEST_F(FiveNodes, KillRestartKillsCountDistinctLockNodesFromThePickedOne) {
    const std::vector<Node*> lock{n(1), n(2), n(4), n(5)};
    EXPECT_EQ(kill_restart_targets(lock, 6, 1), (std::vector<Node*>{n(4)})) << "1: one node, as always";
    EXPECT_EQ(kill_restart_targets(lock, 6, 3), (std::vector<Node*>{n(4), n(5), n(1)})) << "wraps around";
    EXPECT_EQ(kill_restart_targets(lock, 1, 9), (std::vector<Node*>{n(2), n(4), n(5), n(1)}))
        << "at most the nodes the lock is on";
    EXPECT_EQ(kill_restart_targets(lock, UINT64_MAX, 2).size(), 2u);
    EXPECT_NE(kill_restart_targets(lock, UINT64_MAX, 2)[0], kill_restart_targets(lock, UINT64_MAX, 2)[1])
        << "distinct nodes even for the largest pick";
    EXPECT_TRUE(kill_restart_targets({}, 0, 3).empty()) << "no held lock, no kill";
}

TEST(PowerLossSpec, NodesAreOneMajorityOrAllAndTheDelayIsKillRestarts) {
    const Spec s =
        spec_from_json({{"ttl_ms", 1000}, {"restart_delay_ms", "1.2xttl"}, {"power_loss_nodes", "all"}}, "t");
    const auto options = fault_options_for(*find_fault("power-loss"), s.fault_options, OptionContext{s.ttl_ms});
    EXPECT_EQ(options.at("restart_delay_ms"), 1200);
    EXPECT_EQ(options.at("power_loss_nodes"), "all");
    EXPECT_EQ(fault_options_for(*find_fault("power-loss"), spec_from_json(nlohmann::json::object(), "t").fault_options,
                                {1000})
                  .at("power_loss_nodes"),
              "one");
    EXPECT_EQ(lockcheck::testing::spec_error_of({{"power_loss_nodes", "rack"}}),
              "spec redis-holder-pause: field 'power_loss_nodes' must be one, majority or all");
}

TEST(PowerLossSpec, AfterGrantIsUnsetByDefaultOrMillisecondsUpToAMinute) {
    const auto& fault = *find_fault("power-loss");
    EXPECT_EQ(fault_options_for(fault, spec_from_json(nlohmann::json::object(), "t").fault_options, {1000})
                  .at("power_loss_after_grant_ms"),
              -1)
        << "-1: the fault strikes at the event's time";
    const Spec s = spec_from_json({{"power_loss_after_grant_ms", 150}}, "t");
    EXPECT_EQ(fault_options_for(fault, s.fault_options, OptionContext{s.ttl_ms}).at("power_loss_after_grant_ms"), 150);
    EXPECT_EQ(fault_options_for(fault, spec_from_json({{"power_loss_after_grant_ms", 0}}, "t").fault_options, {1000})
                  .at("power_loss_after_grant_ms"),
              0);
    for (const nlohmann::json& bad :
         {nlohmann::json(-2), nlohmann::json(60'001), nlohmann::json("0.1xttl"), nlohmann::json(1.5)})
        EXPECT_EQ(lockcheck::testing::spec_error_of({{"power_loss_after_grant_ms", bad}}),
                  "spec t.json: field 'power_loss_after_grant_ms' must be an integer in [-1, 60000]")
            << bad;
}

TEST(TornWriteSpec, KeepsIsLastWritePrefixOrSectorsAndTheOtherFieldsArePowerLosses) {
    const auto& fault = *find_fault("torn-write");
    EXPECT_TRUE(fault.needs_unsynced_data);
    const auto defaults = fault_options_for(fault, spec_from_json(nlohmann::json::object(), "t").fault_options, {1000});
    EXPECT_EQ(defaults.at("torn_write_keeps"), "last-write-prefix");
    EXPECT_EQ(defaults.at("power_loss_nodes"), "one");
    EXPECT_EQ(defaults.at("power_loss_after_grant_ms"), -1);
    const Spec s = spec_from_json({{"ttl_ms", 1000},
                                   {"torn_write_keeps", "sectors"},
                                   {"power_loss_nodes", "majority"},
                                   {"restart_delay_ms", "0.5xttl"}},
                                  "t");
    const auto options = fault_options_for(fault, s.fault_options, OptionContext{s.ttl_ms});
    EXPECT_EQ(options.at("torn_write_keeps"), "sectors");
    EXPECT_EQ(options.at("power_loss_nodes"), "majority") << "the field power-loss has";
    EXPECT_EQ(options.at("restart_delay_ms"), 500);
    EXPECT_EQ(lockcheck::testing::spec_error_of({{"torn_write_keeps", "halves"}}),
              "spec redis-holder-pause: field 'torn_write_keeps' must be last-write-prefix or sectors");
}

TEST(LiveState, FreshGrantsAreTheHoldersGrantedSinceAMoment) {
    LiveState live;
    live.acquired(1, "lock");
    const auto after_first = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_TRUE(live.granted_since(after_first).empty()) << "worker 1's grant came before";
    live.acquired(2, "other");
    EXPECT_EQ(live.granted_since(after_first), std::vector<int>{2});
    live.releasing(2, "other");
    EXPECT_TRUE(live.granted_since(after_first).empty()) << "a released grant is no holder";
    live.acquired(3, "lock");
    live.forget(3);
    EXPECT_TRUE(live.granted_since(after_first).empty()) << "a forgotten worker holds nothing";
    EXPECT_EQ(live.holders(), std::vector<int>{1});
}

TEST_F(FiveNodes, UnavailableWhereNoNodeKeepsDataOnTheFilesystem) {
    StaticTopology topology(nodes_);
    NoWorkers workers;
    EXPECT_THROW(
        {
            try {
                make_faults({"power-loss"}, FaultTargets{workers, topology},
                            spec_from_json(nlohmann::json::object(), "t").fault_options, OptionContext{1000});
            } catch (const std::invalid_argument& e) {
                EXPECT_STREQ(e.what(),
                             "fault 'power-loss' is unavailable here: the nodes keep no data on the "
                             "lose-unsynced filesystem");
                throw;
            }
        },
        std::invalid_argument);
}

TEST_F(FiveNodes, TornWriteIsAPowerLossOfItsOwnKindAndUnavailableWhereNothingCanTear) {
    StaticTopology topology(nodes_);
    NoWorkers workers;
    try {
        make_faults({"torn-write"}, FaultTargets{workers, topology},
                    spec_from_json(nlohmann::json::object(), "t").fault_options, OptionContext{1000});
        ADD_FAILURE() << "torn-write was made where no node keeps data on the filesystem";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(),
                     "fault 'torn-write' is unavailable here: the nodes keep no data on the lose-unsynced filesystem");
    }
    const PowerLoss torn(LockLocator(topology, ""), workers, PowerLoss::Reach::One, 0, std::nullopt, {},
                         unsyncedfs::TearMode::Sectors);
    EXPECT_EQ(torn.kind(), "torn-write");
    const PowerLoss plain(LockLocator(topology, ""), workers, PowerLoss::Reach::One, 0, std::nullopt, {});
    EXPECT_EQ(plain.kind(), "power-loss");
}


TEST(DiskErrorSpec, OpIsFsyncWriteOrBothEachWithTheErrnoOfItsDisk) {
    const auto& fault = *find_fault("disk-error");
    EXPECT_TRUE(fault.needs_unsynced_data);
    EXPECT_EQ(fault_options_for(fault, spec_from_json(nlohmann::json::object(), "t").fault_options, {1000})
                  .at("disk_error_op"),
              "fsync");
    EXPECT_EQ(fault_options_for(fault, spec_from_json({{"disk_error_op", "both"}}, "t").fault_options, {1000})
                  .at("disk_error_op"),
              "both");
    EXPECT_EQ(lockcheck::testing::spec_error_of({{"disk_error_op", "read"}}),
              "spec redis-holder-pause: field 'disk_error_op' must be fsync, write or both");
    EXPECT_EQ(lockcheck::testing::spec_error_of({{"disk_error_op", 1}}),
              "spec t.json: field 'disk_error_op' must be a string");
    const auto fsync = disk_errors_for("fsync");
    EXPECT_EQ(fsync.fsync_errno, EIO);
    EXPECT_EQ(fsync.write_errno, 0) << "writes still work while syncs fail";
    const auto write = disk_errors_for("write");
    EXPECT_EQ(write.fsync_errno, 0);
    EXPECT_EQ(write.write_errno, ENOSPC);
    EXPECT_EQ(unsyncedfs::disk_errors_arguments(disk_errors_for("both")), "fsync=eio write=enospc");
    EXPECT_THROW(disk_errors_for("read"), std::invalid_argument);
}

TEST_F(FiveNodes, DiskErrorStrikesALockNodeOrTheOnlyNodeThatCanFail) {
    EXPECT_EQ(disk_error_target(nodes_, {n(2), n(4)}, 1), n(4)) << "pick chooses among the lock's nodes";
    EXPECT_EQ(disk_error_target({n(1), n(2), n(3)}, {n(5), n(3)}, 0), n(3))
        << "a lock node whose data is not on the filesystem is passed over";
    EXPECT_EQ(disk_error_target(nodes_, {}, 3), nullptr) << "no held lock among several nodes: no target";
    EXPECT_EQ(disk_error_target({n(1)}, {}, 3), n(1)) << "one node: that node, held lock or not";
    EXPECT_EQ(disk_error_target({}, {n(1)}, 0), nullptr) << "no node can fail";
}

TEST_F(FiveNodes, DiskErrorIsUnavailableWhereNoNodeKeepsDataOnTheFilesystem) {
    StaticTopology topology(nodes_);
    NoWorkers workers;
    try {
        make_faults({"disk-error"}, FaultTargets{workers, topology},
                    spec_from_json(nlohmann::json::object(), "t").fault_options, OptionContext{1000});
        ADD_FAILURE() << "disk-error was made where no node keeps data on the filesystem";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(),
                     "fault 'disk-error' is unavailable here: the nodes keep no data on the lose-unsynced filesystem");
    }
}

}  // namespace
