// Checkers on histories whose resource the workers own (capability
// "resource": read and write in the lock's transaction, marked resource
// "worker"), and the conflict rate of optimistic recipes.
#include <gtest/gtest.h>

#include "checkers/liveness.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/resource.hpp"
#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// Marks the last two ops (an access's invoke and completion) as worker-owned.
void mark_worker(HistoryBuilder& b) {
    auto& h = b.history();
    h[h.size() - 1].resource = std::string(resource_owner::kWorker);
    h[h.size() - 2].resource = std::string(resource_owner::kWorker);
}

std::int64_t worker_read(HistoryBuilder& b, double t0, double t1, int process, std::int64_t value) {
    const auto i = b.read(t0, t1, process, value);
    mark_worker(b);
    return i;
}

std::int64_t worker_write(HistoryBuilder& b, double t0, double t1, int process, std::int64_t value,
                          OpType type = OpType::Ok) {
    const auto i = b.write(t0, t1, process, value, std::nullopt, type);
    b.history().back().error = type == OpType::Ok ? std::nullopt : std::optional<std::string>("connection lost");
    mark_worker(b);
    return i;
}

CheckerResult resource(HistoryBuilder& b) { return check_resource(b.history(), pair_ops(b.history())); }
CheckerResult mutex(HistoryBuilder& b) { return check_mutual_exclusion(b.history(), pair_ops(b.history())); }

}  // namespace

TEST(WorkerOwnedResource, TwoCommittedWritesOfOneValueAreALostUpdate) {
    HistoryBuilder b;
    worker_read(b, 0, 1, 1, 0);
    worker_read(b, 2, 3, 2, 0);  // both read 0: the lock let both in
    const auto w1 = worker_write(b, 4, 5, 1, 1);
    const auto w2 = worker_write(b, 6, 7, 2, 1);
    const auto r = resource(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kLostUpdate);
    EXPECT_EQ(r.violations[0].ops, (std::vector<std::int64_t>{w1, w2}));
    EXPECT_EQ(r.stats["lost_updates"], 1);
    EXPECT_EQ(r.stats["worker_owned"]["writes_committed"], 2);
}

/// Worker 1 commits 1 (its write's reply is slow), worker 2 then reads 1 and
/// commits 2, and worker 2's reply reaches the controller first: in
/// completion order worker 1's write "overwrites" worker 2's.
static void racing_replies(HistoryBuilder& b, bool marked) {
    const auto mark = [&] {
        if (marked) b.history().back().resource = std::string(resource_owner::kWorker);
    };
    b.add(0, 1, OpType::Invoke, "read"), mark();
    b.add(1, 1, OpType::Ok, "read"), mark();
    b.history().back().value = 0;
    b.add(2, 1, OpType::Invoke, "write"), mark();  // commits at once, reply slow
    b.history().back().value = 1;
    b.add(4, 2, OpType::Invoke, "read"), mark();
    b.add(5, 2, OpType::Ok, "read"), mark();
    b.history().back().value = 1;
    b.add(6, 2, OpType::Invoke, "write"), mark();
    b.history().back().value = 2;
    b.add(7, 2, OpType::Ok, "write"), mark();
    b.history().back().value = 2;
    b.add(40, 1, OpType::Ok, "write"), mark();
    b.history().back().value = 1;
}

TEST(WorkerOwnedResource, RacingRepliesAreNotALostUpdate) {
    HistoryBuilder b;
    racing_replies(b, true);
    const auto r = resource(b);
    EXPECT_EQ(r.valid, Validity::Valid) << r.violations.size();
    EXPECT_EQ(r.stats["lost_updates"], 0);
    EXPECT_EQ(r.stats["writes_accepted"], 2);
}

TEST(WorkerOwnedResource, UnmarkedTheReplayWouldCallRacingRepliesALostUpdate) {
    // Why worker-owned ops must be marked: the controller-register replay
    // takes completion order for apply order.
    HistoryBuilder b;
    racing_replies(b, false);
    EXPECT_EQ(resource(b).valid, Validity::Invalid);
}

TEST(WorkerOwnedResource, AnIndeterminateWriteProvesNothing) {
    HistoryBuilder b;
    worker_read(b, 0, 1, 1, 0);
    worker_write(b, 2, 3, 1, 1, OpType::Info);  // the commit may or may not have happened
    worker_read(b, 4, 5, 2, 0);
    worker_write(b, 6, 7, 2, 1);
    const auto r = resource(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["worker_owned"]["writes_indeterminate"], 1);
}

TEST(TransactionalSessions, OverlapAfterTheLeaseWithARolledBackHolderIsHarmless) {
    // Worker 1 holds a 1 s lease and pauses; the server kills its connection
    // (rolling the transaction back) and worker 2 takes the lock at 1500 ms.
    // Worker 1 wakes at 3000 ms: its write fails, then it releases.
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    worker_read(b, 6, 7, 1, 0);
    b.acquire_invoke(1400, 2, 1000);
    b.acquire_done(1500, 2, OpType::Ok);
    worker_read(b, 1501, 1502, 2, 0);
    worker_write(b, 1600, 1601, 2, 1);
    b.release_invoke(1602, 2);
    b.release_done(1603, 2, OpType::Ok);
    worker_write(b, 3000, 3001, 1, 1, OpType::Fail);
    b.release_invoke(3002, 1);
    b.release_done(3003, 1, OpType::Ok);
    auto r = mutex(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["rolled_back"], 1);
    EXPECT_EQ(r.stats["overlaps"], 0);
    EXPECT_EQ(resource(b).valid, Validity::Valid);
}

TEST(TransactionalSessions, ACommittedOrUnknownWriteKeepsTheOverlapAViolation) {
    for (const OpType late : {OpType::Ok, OpType::Info}) {
        HistoryBuilder b;
        b.acquire_invoke(0, 1, 1000);
        b.acquire_done(5, 1, OpType::Ok);
        worker_read(b, 6, 7, 1, 0);
        b.acquire_invoke(1400, 2, 1000);
        b.acquire_done(1500, 2, OpType::Ok);
        b.release_invoke(1602, 2);
        b.release_done(1603, 2, OpType::Ok);
        worker_write(b, 3000, 3001, 1, 1, late);
        b.release_invoke(3002, 1);
        b.release_done(3003, 1, OpType::Ok);
        auto r = mutex(b);
        EXPECT_EQ(r.valid, Validity::Invalid) << to_string(late);
        EXPECT_EQ(r.stats["lease_expired"], 1);
        EXPECT_EQ(r.stats["rolled_back"], 0);
    }
}

TEST(TransactionalSessions, AnOverlapWithinTheLeaseIsAViolationEvenWhenRolledBack) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(100, 2, 1000);
    b.acquire_done(110, 2, OpType::Ok);  // worker 1's lease still runs: the lock broke its promise
    b.release_invoke(200, 2);
    b.release_done(201, 2, OpType::Ok);
    worker_write(b, 300, 301, 1, 1, OpType::Fail);
    b.release_invoke(302, 1);
    b.release_done(303, 1, OpType::Ok);
    auto r = mutex(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.stats["within_lease"], 1);
}

/// Worker 1's commit (its write) frees the row; worker 2 gets it before
/// worker 1's reply and release arrive.
static HistoryBuilder commit_then_release(bool marked) {
    HistoryBuilder b;
    const auto mark = [&] {
        if (marked) b.history().back().resource = std::string(resource_owner::kWorker);
    };
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.add(100, 1, OpType::Invoke, "write"), mark();
    b.acquire_invoke(100.5, 2, 1000);
    b.acquire_done(101, 2, OpType::Ok);
    b.add(102, 1, OpType::Ok, "write"), mark();
    b.history().back().value = 1;
    b.release_invoke(103, 1);
    b.release_done(104, 1, OpType::Ok);
    b.release_invoke(200, 2);
    b.release_done(201, 2, OpType::Ok);
    return b;
}

TEST(TransactionalSessions, TheCommitEndsTheCriticalSectionNotTheRelease) {
    // No overlap: worker 1 relied on nothing after sending the commit.
    auto b = commit_then_release(true);
    auto r = mutex(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["overlaps"], 0);
    EXPECT_EQ(r.stats["rolled_back"], 0);
}

TEST(TransactionalSessions, WithoutTheMarkerTheSameHistoryOverlaps) {
    auto b = commit_then_release(false);
    EXPECT_EQ(mutex(b).valid, Validity::Invalid);
}

TEST(ConflictRate, OptimisticConflictsAreCountedPerAttempt) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 105);
    for (int i = 0; i < 3; ++i) {
        b.acquire_invoke(10 + i, 2);
        b.acquire_done(11 + i, 2, OpType::Fail);
        b.history().back().error = std::string(err::kConflict);
    }
    const auto r = check_liveness(b.history(), pair_ops(b.history()));
    EXPECT_EQ(r.stats["acquires"]["conflicts"], 3);
    EXPECT_DOUBLE_EQ(r.stats["acquires"]["conflict_rate"].get<double>(), 0.75);
}

TEST(ConflictRate, AbsentWithoutConflicts) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 105);
    const auto r = check_liveness(b.history(), pair_ops(b.history()));
    EXPECT_FALSE(r.stats["acquires"].contains("conflict_rate"));
}

TEST(WorkerOwnedResource, TheMarkerSurvivesTheHistoryFormat) {
    Op op;
    op.index = 3;
    op.type = OpType::Ok;
    op.f = std::string(fn::kWrite);
    op.key = "lock";
    op.value = 4;
    op.resource = std::string(resource_owner::kWorker);
    const auto j = op_to_json(op);
    EXPECT_EQ(j["resource"], "worker");
    EXPECT_EQ(op_from_json(j).resource, op.resource);
    op.resource.reset();
    EXPECT_FALSE(op_to_json(op).contains("resource"));
}
