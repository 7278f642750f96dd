#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "checkers/linearizability.hpp"
#include "checkers/lock_fast_check.hpp"
#include "checkers/lock_ops.hpp"
#include "checkers/lock_search.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

// Real-time order is history order, so every test appends ops in time order.
namespace {

CheckerResult check(HistoryBuilder& b, LinearizabilityOptions o = {}) {
    return check_linearizability(b.history(), pair_ops(b.history()), o);
}

// Both paths must agree on histories inside the fragment.
Validity check_both(HistoryBuilder& b) {
    LinearizabilityOptions forced;
    forced.force_search = true;
    const auto fast = check(b), searched = check(b, forced);
    EXPECT_EQ(fast.valid, searched.valid);
    return fast.valid;
}

bool lists(const Violation& v, std::int64_t index) { return std::count(v.ops.begin(), v.ops.end(), index) > 0; }

/// `sessions` valid sessions of 20 workers from time 0, each with a busy
/// answer to worker 50 while it holds: twice as many owners as sessions, far
/// more than the lock model's owner table starts with. Returns the end time.
double many_owners(HistoryBuilder& b, int sessions) {
    double t = 0;
    for (int i = 0; i < sessions; ++i, t += 10) {
        b.acquire_invoke(t, 1 + i % 20);
        b.acquire_done(t + 1, 1 + i % 20, OpType::Ok);
        b.acquire_invoke(t + 2, 50);
        b.acquire_done(t + 3, 50, OpType::Fail);
        b.release_invoke(t + 5, 1 + i % 20);
        b.release_done(t + 6, 1 + i % 20, OpType::Ok);
    }
    return t;
}

/// Acquires by `process` under `owner` (a name too long to be kept inside the op).
void acquire_as(HistoryBuilder& b, double t0, double t1, int process, const std::string& owner, OpType outcome) {
    b.acquire_invoke(t0, process);
    b.history().back().owner = owner;
    b.acquire_done(t1, process, outcome);
}

}  // namespace

TEST(Linearizability, SequentialSessionsAreValidWithACertificate) {
    HistoryBuilder b;
    b.session(1, 0, 5, 300, 305);
    b.acquire_invoke(310, 2);
    b.acquire_done(315, 2, OpType::Ok);
    b.acquire_invoke(320, 3);
    b.acquire_done(330, 3, OpType::Fail);  // busy while worker 2 holds
    b.release_invoke(600, 2);
    b.release_done(605, 2, OpType::Ok);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["keys_fast_path"], 1);
    EXPECT_EQ(r.stats["certified_ops"], 5);  // 2 acquires, 2 releases, 1 busy answer
    EXPECT_EQ(check_both(b), Validity::Valid);
}

TEST(Linearizability, OverlappingSessionsAreADoubleGrant) {
    HistoryBuilder b;
    auto a1 = b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(100, 2);
    auto a2 = b.acquire_done(110, 2, OpType::Ok);
    auto r1 = b.release_invoke(300, 1);
    b.release_done(301, 1, OpType::Ok);
    b.release_invoke(400, 2);
    b.release_done(401, 2, OpType::Ok);
    auto r = check(b);
    ASSERT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, "double-grant");
    EXPECT_TRUE(lists(r.violations[0], a1) && lists(r.violations[0], a2) && lists(r.violations[0], r1));
    EXPECT_EQ(check_both(b), Validity::Invalid);
}

TEST(Linearizability, BusyAnswerWhileTheLockIsCertainlyFreeIsInvalid) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 105);
    auto busy = b.acquire_invoke(200, 2);
    b.acquire_done(210, 2, OpType::Fail);
    b.session(3, 300, 305, 400, 405);
    auto r = check(b);
    ASSERT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.violations[0].kind, "busy-while-free");
    EXPECT_TRUE(lists(r.violations[0], busy));
    EXPECT_EQ(check_both(b), Validity::Invalid);
}

TEST(Linearizability, BusyAnswerBeforeAnyoneAcquiredIsInvalid) {
    HistoryBuilder b;
    b.acquire_invoke(0, 2);
    b.acquire_done(10, 2, OpType::Fail);
    b.session(1, 20, 25, 100, 105);
    EXPECT_EQ(check_both(b), Validity::Invalid);
}

TEST(Linearizability, BusyAnswerOverlappingTheReleaseIsValid) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.release_invoke(100, 1);
    b.acquire_invoke(120, 2);  // invoked before the release completed: may have seen it held
    b.release_done(150, 1, OpType::Ok);
    b.acquire_done(200, 2, OpType::Fail);
    EXPECT_EQ(check_both(b), Validity::Valid);
}

TEST(Linearizability, IndeterminateAcquireMayExplainALaterBusyAnswer) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 105);
    b.acquire_invoke(50, 3);
    b.acquire_done(60, 3, OpType::Info);  // may take effect later, after the release
    b.acquire_invoke(200, 2);
    b.acquire_done(210, 2, OpType::Fail);
    EXPECT_EQ(check_both(b), Validity::Valid);
}

TEST(Linearizability, IndeterminateAcquireCannotExplainABusyAnswerBeforeALaterGrant) {
    HistoryBuilder b;
    b.acquire_invoke(0, 3);
    b.acquire_done(10, 3, OpType::Info);
    b.acquire_invoke(20, 2);
    b.acquire_done(30, 2, OpType::Fail);  // only the info acquire could hold here, but then ...
    b.session(1, 40, 45, 100, 105);       // ... nobody could acquire afterwards
    EXPECT_EQ(check_both(b), Validity::Invalid);
}

TEST(Linearizability, IndeterminateReleaseMayLetTheNextHolderIn) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.release_invoke(100, 1);
    b.release_done(2000, 1, OpType::Info);
    b.session(2, 150, 160, 300, 305);
    EXPECT_EQ(check_both(b), Validity::Valid);
}

TEST(Linearizability, HolderThatNeverReleasesBlocksLaterGrants) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.session(2, 150, 160, 300, 305);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.violations[0].kind, "double-grant");
}

TEST(Linearizability, ReleaseByAnOwnerThatNeverHeldIsInvalid) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(10, 2);
    b.acquire_done(15, 2, OpType::Fail);
    b.release_invoke(20, 2);
    b.release_done(25, 2, OpType::Ok);
    auto r = check(b);
    ASSERT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.violations[0].kind, "release-without-hold");
    EXPECT_EQ(check_both(b), Validity::Invalid);
}

TEST(Linearizability, AmongManyOwnersADoubleGrantNamesBothHolders) {
    HistoryBuilder b;
    const double t = many_owners(b, 500);
    acquire_as(b, t, t + 1, 1, "the-first-holder-of-a-long-name", OpType::Ok);
    acquire_as(b, t + 2, t + 3, 2, "the-second-holder-of-a-long-name", OpType::Ok);
    auto r = check(b);
    ASSERT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, "double-grant");
    EXPECT_NE(r.violations[0].description.find("owner 'the-second-holder-of-a-long-name' acquired the lock while "
                                               "owner 'the-first-holder-of-a-long-name' held it"),
              std::string::npos)
        << r.violations[0].description;
    EXPECT_EQ(check_both(b), Validity::Invalid);
}

TEST(Linearizability, AmongManyOwnersAReleaseByABusyOwnerIsFound) {
    HistoryBuilder b;
    const double t = many_owners(b, 500);
    b.acquire_invoke(t, 1);
    b.acquire_done(t + 1, 1, OpType::Ok);
    acquire_as(b, t + 2, t + 3, 2, "told-it-was-held-but-released", OpType::Fail);
    b.release_invoke(t + 4, 2);
    b.release_done(t + 5, 2, OpType::Ok);
    b.release_invoke(t + 10, 1);
    b.release_done(t + 11, 1, OpType::Ok);
    auto r = check(b);
    ASSERT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, "release-without-hold");
    EXPECT_NE(r.violations[0].description.find("owner 'told-it-was-held-but-released'"), std::string::npos)
        << r.violations[0].description;
}

TEST(Linearizability, ManyOwnersAreValidWithEveryOpCertified) {
    HistoryBuilder b;
    many_owners(b, 500);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["keys_fast_path"], 1);
    EXPECT_EQ(r.stats["certified_ops"], 1500);
}

TEST(LockFastCheck, CertificateIsAllocatedOnceAtItsBound) {
    // The bound: an acquire and a release per session, the first
    // indeterminate acquire, the busy answers; here all but that one.
    HistoryBuilder b;
    many_owners(b, 500);
    auto keys = collect_lock_ops(b.history(), pair_ops(b.history()));
    ASSERT_EQ(keys.size(), 1u);
    std::string outside;
    const auto verdict = check_key_fast(keys[0], 10, &outside);
    ASSERT_TRUE(verdict) << outside;
    ASSERT_EQ(verdict->valid, Validity::Valid);
    EXPECT_EQ(verdict->certificate.size(), 1500u);
    EXPECT_EQ(verdict->certificate.capacity(), 1501u);
}

TEST(LockFastCheck, CertificateReplaysOnEveryValidShape) {
    // check_key_fast leaves the replay to check_linearizability; its
    // certificates must pass it: a release and the next acquire at the same
    // point, busy answers before and after them, an indeterminate acquire
    // and an unreleased holder keeping the lock to the end.
    std::vector<HistoryBuilder> shapes(4);
    shapes[0].acquire_invoke(0, 1);
    shapes[0].acquire_done(5, 1, OpType::Ok);
    shapes[0].release_invoke(100, 1);
    shapes[0].acquire_invoke(101, 2);  // overlaps the release: both placed at one position
    shapes[0].acquire_invoke(102, 3);
    shapes[0].release_done(105, 1, OpType::Ok);
    shapes[0].acquire_done(106, 3, OpType::Fail);  // busy across the hand-over
    shapes[0].acquire_done(110, 2, OpType::Ok);
    shapes[1].session(1, 0, 5, 100, 105);
    shapes[1].acquire_invoke(50, 3);
    shapes[1].acquire_done(60, 3, OpType::Info);  // takes effect after the release, holds to the end
    shapes[1].acquire_invoke(200, 2);
    shapes[1].acquire_done(210, 2, OpType::Fail);
    shapes[2].acquire_invoke(0, 1);
    shapes[2].acquire_done(5, 1, OpType::Ok);  // never released
    shapes[2].acquire_invoke(10, 2);
    shapes[2].acquire_done(15, 2, OpType::Fail);
    many_owners(shapes[3], 50);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const auto keys = collect_lock_ops(shapes[i].history(), pair_ops(shapes[i].history()));
        ASSERT_EQ(keys.size(), 1u);
        std::string outside;
        const auto verdict = check_key_fast(keys[0], 10, &outside);
        ASSERT_TRUE(verdict) << "shape " << i << ": " << outside;
        ASSERT_EQ(verdict->valid, Validity::Valid) << "shape " << i;
        EXPECT_EQ(replay_certificate(keys[0], verdict->certificate), "") << "shape " << i;
        EXPECT_EQ(check(shapes[i]).valid, Validity::Valid) << "shape " << i;
    }
}

TEST(Linearizability, IgnoresResourceRenewAndNemesisOps) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok, 7);
    b.read(10, 11, 1, 0, 7);
    b.add(12, 1, OpType::Invoke, "renew");
    b.add(13, 1, OpType::Fail, "renew");
    b.add(14, kNemesisProcess, OpType::Invoke, "start-fault", "");
    b.add(15, kNemesisProcess, OpType::Info, "start-fault", "");
    b.write(20, 21, 1, 1, 7, OpType::Fail);
    b.release_invoke(30, 1);
    b.release_done(31, 1, OpType::Ok);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["lock_ops"], 2);
}

TEST(Linearizability, KeysAreIndependent) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 105);
    b.add(10, 2, OpType::Invoke, "acquire", "other");
    b.history().back().owner = "x";
    b.add(20, 2, OpType::Ok, "acquire", "other");
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["keys"], 2);
}

TEST(Linearizability, OwnerReusedAfterIndeterminateAcquireIsSearched) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(10, 1, OpType::Info);
    b.release_invoke(20, 1);  // same owner: the info acquire must have taken effect
    b.release_done(30, 1, OpType::Ok);
    b.session(2, 40, 45, 100, 105);
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["keys_searched"], 1);

    b.acquire_invoke(110, 3);  // the lock is free here, yet the answer is busy
    b.acquire_done(120, 3, OpType::Fail);
    r = check(b);
    ASSERT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.violations[0].kind, "not-linearizable");
    EXPECT_EQ(r.violations[0].details["method"], "search");
    EXPECT_LE(r.violations[0].ops.size(), 6u);  // shrunk to the proof, not the whole history
}

TEST(Linearizability, ReentrantAcquireWithoutReleaseIsInvalid) {
    HistoryBuilder b;
    for (double t : {0.0, 10.0}) {
        b.add(t, 1, OpType::Invoke, "acquire");
        b.history().back().owner = "me";
        b.add(t + 5, 1, OpType::Ok, "acquire");
    }
    auto r = check(b);
    EXPECT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.stats["keys_searched"], 1);
}

TEST(Linearizability, SearchBudgetExhaustedIsUnknownNeverValid) {
    HistoryBuilder b;
    for (int i = 0; i < 20; ++i) b.session(1 + i % 3, i * 10, i * 10 + 1, i * 10 + 5, i * 10 + 6);
    LinearizabilityOptions o;
    o.force_search = true;
    o.search_budget = 5;
    auto r = check(b, o);
    EXPECT_EQ(r.valid, Validity::Unknown);
    EXPECT_TRUE(r.stats.contains("unknown_because"));
}

TEST(Linearizability, PendingOpsAtTheEndAreIndeterminate) {
    HistoryBuilder b;
    b.session(1, 0, 5, 100, 105);
    b.acquire_invoke(200, 2);  // never completes
    b.acquire_invoke(210, 3);
    b.acquire_done(220, 3, OpType::Fail);  // explained by the pending acquire
    EXPECT_EQ(check_both(b), Validity::Valid);
}

TEST(LockSearch, CertificateReplaysAndNamesEveryDefiniteOp) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(50, 2);
    b.acquire_done(60, 2, OpType::Fail);
    b.release_invoke(100, 1);
    b.release_done(105, 1, OpType::Ok);
    b.session(3, 110, 120, 200, 205);
    auto keys = collect_lock_ops(b.history(), pair_ops(b.history()));
    ASSERT_EQ(keys.size(), 1u);
    auto s = search_key(keys[0], 1000);
    ASSERT_EQ(s.valid, Validity::Valid);
    EXPECT_EQ(s.certificate.size(), 5u);
    EXPECT_EQ(replay_certificate(keys[0], s.certificate), "");
    Certificate broken = s.certificate;
    std::swap(broken[0], broken[1]);
    EXPECT_NE(replay_certificate(keys[0], broken), "");
}
