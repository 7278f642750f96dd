#include <gtest/gtest.h>

#include "checkers/liveness.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {
CheckerResult check(HistoryBuilder& b) { return check_liveness(b.history(), pair_ops(b.history())); }

void fault(HistoryBuilder& b, double start, double stop, int id) {
    for (auto [t, f] : {std::pair{start, "start-fault"}, std::pair{stop, "stop-fault"}}) {
        b.add(t, kNemesisProcess, OpType::Invoke, f, "");
        b.history().back().value = {{"fault", "pause"}, {"id", id}};
        b.add(t + 1, kNemesisProcess, OpType::Info, f, "");
        b.history().back().value = {{"fault", "pause"}, {"id", id}};
    }
}
}  // namespace

TEST(Percentile, NearestRank) {
    std::vector<double> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    EXPECT_EQ(percentile(v, 50), 5);
    EXPECT_EQ(percentile(v, 95), 10);
    EXPECT_EQ(percentile(v, 10), 1);
    EXPECT_EQ(percentile({42}, 99), 42);
}

TEST(Liveness, SuccessRateAndLatencyPerOpKind) {
    HistoryBuilder b;
    b.session(1, 0, 10, 100, 102);  // acquire 10 ms, release 2 ms
    b.acquire_invoke(20, 2);
    b.acquire_done(50, 2, OpType::Fail);  // 30 ms, busy
    b.acquire_invoke(60, 3);
    b.acquire_done(70, 3, OpType::Info);  // indeterminate: not in the success rate
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    const auto& a = r.stats["acquires"];
    EXPECT_EQ(a["attempts"], 3);
    EXPECT_EQ(a["ok"], 1);
    EXPECT_EQ(a["busy"], 1);
    EXPECT_EQ(a["indeterminate"], 1);
    EXPECT_DOUBLE_EQ(a["success_rate"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(r.stats["latency_ms"]["acquire"]["max"].get<double>(), 30.0);
    EXPECT_DOUBLE_EQ(r.stats["latency_ms"]["acquire"]["p50"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(r.stats["latency_ms"]["release"]["p99"].get<double>(), 2.0);
}

TEST(Liveness, BusyAnswersWhileNobodyClaimsTheLockAreAStuckLock) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 105);
    auto first = b.acquire_invoke(200, 2);
    b.acquire_done(210, 2, OpType::Fail);
    b.acquire_invoke(400, 3);
    auto last = b.acquire_done(450, 3, OpType::Fail);
    b.session(4, 500, 510, 600, 605);
    b.acquire_invoke(520, 5);  // busy while worker 4 holds: not stuck
    b.acquire_done(530, 5, OpType::Fail);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid) << "liveness findings never invalidate a run";
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kStuckLock);
    EXPECT_DOUBLE_EQ(r.violations[0].details["stuck_ms"].get<double>(), 250.0);
    EXPECT_EQ(r.violations[0].ops.front(), 3);  // the release that freed it
    EXPECT_NE(std::find(r.violations[0].ops.begin(), r.violations[0].ops.end(), first), r.violations[0].ops.end());
    EXPECT_EQ(r.violations[0].ops.back(), last);
    EXPECT_DOUBLE_EQ(r.stats["stuck"]["longest_ms"].get<double>(), 250.0);
}

TEST(Liveness, AnIndeterminateAcquireClaimsTheLockUntilItsLeaseCouldHaveRunOut) {
    // Worker 2 is killed half-way through its acquire (answered info at 210 ms,
    // lease 1000 ms): it may have taken the lock, which frees itself by 1211 ms.
    HistoryBuilder b;
    b.acquire_invoke(200, 2);
    b.kill_holder(205, 2);
    b.acquire_done(210, 2, OpType::Info);
    b.acquire_invoke(600, 3);  // within the lease it may hold: not stuck
    b.acquire_done(610, 3, OpType::Fail);
    auto r = check(b);
    EXPECT_TRUE(r.violations.empty());
    // Still told "held" after that lease: the lock outlived it (no TTL was set).
    auto first = b.acquire_invoke(1300, 4);
    b.acquire_done(1310, 4, OpType::Fail);
    b.acquire_invoke(1900, 5);
    b.acquire_done(1950, 5, OpType::Fail);
    r = check(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kStuckLock);
    EXPECT_DOUBLE_EQ(r.violations[0].details["stuck_ms"].get<double>(), 650.0);
    EXPECT_NE(std::find(r.violations[0].ops.begin(), r.violations[0].ops.end(), first), r.violations[0].ops.end());
}

TEST(Liveness, NoStuckLockWhenEveryBusyAnswerMeetsAClaim) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 150);
    b.acquire_invoke(120, 2);  // during the release: the holder still claims it
    b.acquire_done(130, 2, OpType::Fail);
    auto r = check(b);
    EXPECT_TRUE(r.violations.empty());
    EXPECT_EQ(r.stats["stuck"]["stretches"], 0);
}

TEST(Liveness, RecoveryRunsFromTheEndOfEachFaultToTheNextGrant) {
    HistoryBuilder b;
    fault(b, 0, 100, 1);
    b.session(1, 120, 150, 200, 201);  // granted 49 ms after the stop completed at 101
    fault(b, 300, 400, 2);             // nothing granted afterwards
    auto r = check(b);
    const auto& faults = r.stats["recovery"]["faults"];
    ASSERT_EQ(faults.size(), 2u);
    EXPECT_EQ(faults[0]["id"], 1);
    EXPECT_EQ(faults[0]["fault"], "pause");
    EXPECT_DOUBLE_EQ(faults[0]["recovery_ms"].get<double>(), 49.0);
    EXPECT_TRUE(faults[1]["recovery_ms"].is_null());
    EXPECT_EQ(r.stats["recovery"]["unrecovered"], 1);
}

// Regression: the line said "100.0% of acquires granted" when 24 of 30
// acquires timed out, since the rate leaves unknown outcomes out.
TEST(LivenessSummary, CountsGrantedRefusedAndUnknownApart) {
    HistoryBuilder b;
    for (int i = 0; i < 6; ++i) b.session(1, 10.0 * i, 10.0 * i + 1, 10.0 * i + 2, 10.0 * i + 3);
    for (int i = 0; i < 24; ++i) {
        b.acquire_invoke(100.0 + i, 2);
        b.acquire_done(100.5 + i, 2, OpType::Info);
    }
    b.acquire_invoke(200, 3);
    b.acquire_done(201, 3, OpType::Fail);
    const std::string line = liveness_checker().summary(check(b));
    EXPECT_EQ(line.rfind("31 acquires: 6 granted, 1 refused, 24 unknown,", 0), 0u) << line;
    EXPECT_EQ(line.find('%'), std::string::npos) << line;
}

// Regression: "slowest recovery after a fault 0 ms" in a run without faults.
TEST(LivenessSummary, SaysNothingOfRecoveryWithoutFaultsAndNamesFaultsNothingFollowed) {
    HistoryBuilder b;
    b.session(1, 0, 1, 2, 3);
    const std::string quiet = liveness_checker().summary(check(b));
    EXPECT_EQ(quiet.find("recovery"), std::string::npos) << quiet;
    EXPECT_EQ(quiet.rfind("1 acquire: 1 granted,", 0), 0u) << quiet;

    fault(b, 10, 20, 1);
    b.session(1, 30, 40, 50, 51);
    fault(b, 60, 70, 2);
    const std::string faulted = liveness_checker().summary(check(b));
    EXPECT_NE(faulted.find(", slowest recovery after a fault 19 ms, no acquire granted after 1 fault"),
              std::string::npos)
        << faulted;
}

TEST(Liveness, ANodeThatDidNotRestartIsAFindingWithItsLogLineAndTheOthersRestartTimes) {
    HistoryBuilder b;
    fault(b, 0, 100, 1);
    auto& stop = b.history().back();
    stop.value["fault"] = "corrupt-file";
    stop.value["restart_ms"] = {{"n1", 134}};
    stop.value["not_restarted"] = {
        "n2 did not restart after corrupt-file: (redis-server) exited with status 1 before it was ready; its log "
        "says: # Bad file format reading the append only file appendonly.aof.1.incr.aof"};
    const std::int64_t stop_index = stop.index;
    b.session(1, 120, 150, 200, 201);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid) << "a finding, never a verdict";
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kNodeNotRestarted);
    EXPECT_EQ(r.violations[0].ops, std::vector<std::int64_t>{stop_index});
    EXPECT_EQ(r.violations[0].description.rfind("n2 did not restart after corrupt-file: ", 0), 0u);
    EXPECT_NE(r.violations[0].description.find("Bad file format"), std::string::npos) << "the server's own words";
    EXPECT_EQ(r.stats["recovery"]["faults"][0]["restart_ms"]["n1"], 134);
    EXPECT_EQ(r.stats["recovery"]["nodes_not_restarted"], 1);
    EXPECT_NE(liveness_checker().summary(r).find(", 1 node not restarted after a fault"), std::string::npos)
        << liveness_checker().summary(r);
}

TEST(Liveness, EveryNodeBackMeansNoFinding) {
    HistoryBuilder b;
    fault(b, 0, 100, 1);
    b.history().back().value["restart_ms"] = {{"n1", 90}};
    b.session(1, 120, 150, 200, 201);
    auto r = check(b);
    EXPECT_TRUE(r.violations.empty());
    EXPECT_EQ(r.stats["recovery"]["nodes_not_restarted"], 0);
    EXPECT_EQ(liveness_checker().summary(r).find("not restarted"), std::string::npos);
}
