// Lock sessions of re-entered locks and of holders whose process was lost,
// and what the mutual-exclusion and liveness checkers make of them.
#include <gtest/gtest.h>

#include "checkers/linearizability.hpp"
#include "checkers/liveness.hpp"
#include "checkers/lock_sessions.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

std::vector<LockSession> sessions(HistoryBuilder& b) { return extract_sessions(b.history(), pair_ops(b.history())); }
CheckerResult exclusion(HistoryBuilder& b) { return check_mutual_exclusion(b.history(), pair_ops(b.history())); }
CheckerResult liveness(HistoryBuilder& b) { return check_liveness(b.history(), pair_ops(b.history())); }

/// Process `process` enters the lock it holds again, with the same owner.
void reenter(HistoryBuilder& b, double t0, double t1, int process) {
    const auto owner = *b.history()[static_cast<std::size_t>(b.acquire_invoke(t0, process))].owner;
    b.history().back().owner = owner;
    b.acquire_done(t1, process, OpType::Ok);
}

/// A resource read the worker never answered: the controller completes it
/// fail ("worker exited") and replaces the worker under a new number.
void lost_read(HistoryBuilder& b, double t0, double t1, int process) {
    b.add(t0, process, OpType::Invoke, "read");
    b.add(t1, process, OpType::Fail, "read");
    b.history().back().error = "worker exited";
}

}  // namespace

TEST(LockSessions, ReentryEndsAtTheReleaseThatBalancesTheFirstAcquire) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(1, 1, OpType::Ok);
    reenter(b, 2, 3, 1);
    b.release_invoke(100, 1);  // leaves the inner entry: still held
    b.release_done(101, 1, OpType::Ok);
    b.release_invoke(400, 1);
    b.release_done(401, 1, OpType::Ok);
    const auto s = sessions(b);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].entries, 2);
    EXPECT_EQ(s[0].end_ns, 400'000'000);
    EXPECT_EQ(s[0].lease_terms.size(), 2u) << "re-entry renews the lease";
}

TEST(LockSessions, OverlapWithAReenteredHolderAfterItsInnerReleaseIsFound) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(1, 1, OpType::Ok);
    reenter(b, 2, 3, 1);
    b.release_invoke(100, 1);
    b.release_done(101, 1, OpType::Ok);
    b.session(2, 200, 201, 300, 301);  // the lock is still held by 1 here
    b.release_invoke(400, 1);
    b.release_done(401, 1, OpType::Ok);
    const auto r = exclusion(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOverlapWithinLease);
}

TEST(LockSessions, HolderWhoseProcessWasLostEndsAtItsLastOp) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(1, 1, OpType::Ok);
    lost_read(b, 10, 12, 1);               // killed: process 1 never acts again
    b.session(2, 2000, 2001, 2100, 2101);  // after its lease ran out
    const auto s = sessions(b);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].end_ns, 12'000'000);
    ASSERT_TRUE(s[0].lost_at.has_value());
    EXPECT_EQ(exclusion(b).valid, Validity::Valid) << "a dead holder is in no critical section";
}

TEST(LockSessions, IdleHolderStillHoldsToTheEnd) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(1, 1, OpType::Ok);
    b.read(10, 12, 1, 0);  // answered ok: alive, just not released yet
    b.session(2, 2000, 2001, 2100, 2101);
    const auto s = sessions(b);
    EXPECT_FALSE(s[0].lost_at.has_value());
    EXPECT_EQ(exclusion(b).violations.size(), 1u);
}

TEST(LockSessions, LostHolderWhoseProcessActsAgainIsNotLost) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(1, 1, OpType::Ok);
    lost_read(b, 10, 12, 1);
    b.read(20, 22, 1, 0);  // the same process goes on: it was not lost
    b.session(2, 2000, 2001, 2100, 2101);
    EXPECT_FALSE(sessions(b)[0].lost_at.has_value());
    EXPECT_EQ(exclusion(b).violations.size(), 1u);
}

TEST(Liveness, LockOfALostHolderIsStuckOnlyAfterItsLeaseRanOut) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(1, 1, OpType::Ok);
    lost_read(b, 10, 12, 1);
    b.acquire_invoke(500, 2);  // within the dead holder's lease: busy is right
    b.acquire_done(501, 2, OpType::Fail);
    auto r = liveness(b);
    EXPECT_TRUE(r.violations.empty()) << r.violations[0].description;

    b.acquire_invoke(3000, 3);  // long after: the lock is stuck
    b.acquire_done(3001, 3, OpType::Fail);
    b.acquire_invoke(4000, 3);
    b.acquire_done(4001, 3, OpType::Fail);
    r = liveness(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kStuckLock);
    EXPECT_NEAR(r.violations[0].details["stuck_ms"].get<double>(), 1001.0, 0.01);
}

TEST(Liveness, AcquireKilledHalfWayLeavesAStuckLock) {
    // SETNX then EXPIRE, killed in between: the acquire is info, so it claims
    // the lock only until the lease it asked for could have run out (1301 ms),
    // and every later acquire is told it is held.
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(300, 1, OpType::Info);
    for (int i = 0; i < 5; ++i) {
        b.acquire_invoke(1000.0 + i * 500, 2);
        b.acquire_done(1001.0 + i * 500, 2, OpType::Fail);
    }
    const auto r = liveness(b);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kStuckLock);
}

TEST(LockSessions, HolderKilledWhileIdleHoldsNoMoreFromItsKill) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.history().back().ttl_ms.reset();  // a lock without a lease (GET_LOCK): it dies with its holder
    b.acquire_done(1, 1, OpType::Ok);
    b.kill_holder(50, 1);
    b.acquire_invoke(52, 2);
    b.history().back().ttl_ms.reset();
    b.acquire_done(53, 2, OpType::Ok);
    b.write(300, 301, 1, 1, std::nullopt, OpType::Fail);  // the controller notices the death only now
    const auto s = sessions(b);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].end_ns, 50'000'000);
    EXPECT_EQ(*s[0].lost_at, 3u) << "the kill ends the session";
    EXPECT_EQ(exclusion(b).valid, Validity::Valid);
}

TEST(LockSessions, KillOfAnotherWorkerDoesNotEndTheSession) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.history().back().ttl_ms.reset();
    b.acquire_done(1, 1, OpType::Ok);
    b.kill_holder(50, 3);
    b.acquire_invoke(52, 2);
    b.history().back().ttl_ms.reset();
    b.acquire_done(53, 2, OpType::Ok);
    b.read(100, 101, 1, 0);  // worker 1 lives on in its critical section
    const auto result = exclusion(b);
    EXPECT_EQ(result.valid, Validity::Invalid);
    ASSERT_EQ(result.violations.size(), 1u);
    EXPECT_EQ(result.violations[0].kind, kOverlapWithinLease) << "a lock without lease: any overlap breaks its promise";
}

TEST(LockSessions, KilledWorkerIsReadFromTheFaultTargets) {
    Op op;
    op.process = kNemesisProcess;
    op.type = OpType::Info;
    op.f = std::string(fn::kStartFault);
    op.value = {{"fault", "kill-holder"}, {"targets", {"worker 12"}}};
    EXPECT_EQ(killed_worker(op), 12);
    op.value["targets"] = {"worker 12x"};
    EXPECT_EQ(killed_worker(op), std::nullopt);
    op.value = {{"fault", "pause-holder"}, {"targets", {"worker 12"}}};
    EXPECT_EQ(killed_worker(op), std::nullopt);
    op.value = {{"fault", "kill-holder"}, {"targets", {"worker 12"}}};
    op.type = OpType::Invoke;
    EXPECT_EQ(killed_worker(op), std::nullopt);
}

TEST(Linearizability, KilledHoldersLockMayDieWithItOrStay) {
    HistoryBuilder died;  // GET_LOCK: the next grant follows the kill
    died.acquire_invoke(0, 1);
    died.acquire_done(1, 1, OpType::Ok);
    died.kill_holder(50, 1);
    died.acquire_invoke(52, 2);
    died.acquire_done(53, 2, OpType::Ok);
    died.write(300, 301, 1, 1, std::nullopt, OpType::Fail);
    EXPECT_EQ(check_linearizability(died.history(), pair_ops(died.history())).valid, Validity::Valid);

    HistoryBuilder stuck;  // a lock-table record nobody deletes: held ever after
    stuck.acquire_invoke(0, 1);
    stuck.acquire_done(1, 1, OpType::Ok);
    stuck.kill_holder(50, 1);
    stuck.acquire_invoke(52, 2);
    stuck.acquire_done(53, 2, OpType::Fail);
    stuck.history().back().error = std::string(err::kHeld);
    EXPECT_EQ(check_linearizability(stuck.history(), pair_ops(stuck.history())).valid, Validity::Valid);

    HistoryBuilder unkilled;  // without the kill the second grant is a double grant
    unkilled.acquire_invoke(0, 1);
    unkilled.acquire_done(1, 1, OpType::Ok);
    unkilled.acquire_invoke(52, 2);
    unkilled.acquire_done(53, 2, OpType::Ok);
    EXPECT_EQ(check_linearizability(unkilled.history(), pair_ops(unkilled.history())).valid, Validity::Invalid);
}
