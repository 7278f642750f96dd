// The client faults (pause-client, client-partition, client-clock-skew) in short real runs on
// redis-server with the built-in SET NX PX client, whose release is a
// compare-and-delete: each strikes a worker, and the run's verdict is what a
// correct lease-lock client gets under it (at most overlap-lease-expired,
// which fencing fixes, or lease-uncertain; never a within-lease overlap, a late grant or a renew
// after loss); nothing is left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "clusters/clock_offset.hpp"
#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

namespace {

/// Checks that a `kind` fault struck a worker ("worker N") and was healed.
void expect_a_worker_struck(const RunOutcome& run, const std::string& kind) {
    const auto started = nemesis_ops(run, "start-fault", "info");
    bool struck = false;
    for (const auto& op : started) {
        EXPECT_EQ(op["value"]["fault"], kind);
        for (const auto& target : op["value"].value("targets", nlohmann::json::array()))
            if (std::regex_match(target.get<std::string>(), std::regex("worker \\d+"))) struck = true;
    }
    EXPECT_TRUE(struck) << "no " << kind << " fault named a worker as its target";
    EXPECT_GE(nemesis_ops(run, "stop-fault", "info").size() + 1, started.size()) << "every fault but the last is healed";
}

/// Checks that `run` found nothing a correct client avoids: its overlaps are
/// all of the blame classes in `allowed`, never overlap-within-lease or
/// late-grant, and no renew-after-loss. (What an overlap does to the resource,
/// lost updates, stale writes, is no class of blame.)
void expect_a_correct_clients_verdict(const RunOutcome& run, const std::set<std::string>& allowed) {
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    for (const auto& kind : violation_kinds(run, "mutual-exclusion"))
        EXPECT_TRUE(allowed.contains(kind)) << kind << "\n" << run.output;
    EXPECT_EQ(violation_kinds(run, "renew-after-loss"), std::set<std::string>{}) << run.output;
}

}  // namespace

TEST(ClientFaults, PauseClientStopsAWorkerAndAtMostItsLeaseExpires) {
    auto run = run_lockcheck("pause-client", {"run", scenario("redis-quick-no-faults"), "--nemesis", "pause-client",
                                              "--time-limit", "10"});
    expect_a_worker_struck(run, "pause-client");
    // A waiter stopped between its SET and the reply leaves its lease's start unordered: lease-uncertain.
    expect_a_correct_clients_verdict(run, {"overlap-lease-expired", "overlap-lease-uncertain"});
    expect_nothing_left(run);
}

TEST(ClientFaults, ClientPartitionCutsAWorkerOffAndAtMostItsLeaseExpires) {
    auto run = run_lockcheck("client-partition", {"run", scenario("redis-quick-no-faults"), "--nemesis",
                                                  "client-partition", "--time-limit", "10"});
    expect_a_worker_struck(run, "client-partition");
    // A release that never came back leaves the holder's lease end unknown: lease-uncertain is no client bug.
    expect_a_correct_clients_verdict(run, {"overlap-lease-expired", "overlap-lease-uncertain"});
    EXPECT_TRUE(std::regex_search(read_file(run.run_dir / "lockcheck.log"),
                                  std::regex("client-partition: to_server discard.* on every link of worker \\d+")))
        << "the default mode, blackhole, discards the worker's requests";
    expect_nothing_left(run);
}

TEST(ClientFaults, ClientClockSkewLeavesAMonotonicLeaseClientValid) {
    auto run = run_lockcheck("client-clock-skew", {"run", scenario("redis-quick-no-faults"), "--nemesis",
                                                   "client-clock-skew", "--time-limit", "10"});
    expect_a_worker_struck(run, "client-clock-skew");
    // redis-set-nx-px never reads the wall clock: a jump of it changes nothing.
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(violation_kinds(run, "mutual-exclusion"), std::set<std::string>{});
    EXPECT_FALSE(std::filesystem::exists(run.run_dir / "workers" / "fork-server.log")) << "every worker exec'd";
    for (int process = 0; process < 5; ++process) {
        const auto offset = run.run_dir / "workers" / ("worker-" + std::to_string(process) + "-clock") / "clock-offset";
        const auto state = lockcheck::clock_state_of(read_file(offset));
        ASSERT_TRUE(state) << offset;
        EXPECT_FALSE(lc_clock_line_moves(&state->realtime)) << offset << ": every clock put back";
    }
    expect_nothing_left(run);
}
