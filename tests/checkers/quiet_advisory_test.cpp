// The strict-model advisory on locks with leases: a busy answer that an
// indeterminate acquire's lease explains is listed apart (stats), not as a
// finding; one it cannot explain stays a finding (checkers/indeterminate_cover.hpp).
#include <gtest/gtest.h>

#include "checkers/checker_registry.hpp"
#include "checkers/linearizability.hpp"
#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// Worker 1's acquire (lease 1000 ms) is indeterminate, answered at 10 ms;
/// worker 2 is told the lock is held over [busy_at, busy_at + 10]; worker 3
/// then takes and releases the lock. The strict model can only place worker
/// 1's acquire after worker 3's grant, so the lock is certainly free during
/// the busy answer.
HistoryBuilder busy_after_indeterminate_acquire(double busy_at) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(10, 1, OpType::Info);
    b.acquire_invoke(busy_at, 2);
    b.acquire_done(busy_at + 10, 2, OpType::Fail);
    b.history().back().error = std::string(err::kHeld);
    b.session(3, busy_at + 100, busy_at + 110, busy_at + 200, busy_at + 210);
    return b;
}

CheckerResult advisory(HistoryBuilder& b, bool explain) {
    LinearizabilityOptions options;
    options.explain_by_indeterminate_acquires = explain;
    return check_linearizability(b.history(), pair_ops(b.history()), options);
}

/// Exactly one finding, a busy-while-free.
void expect_one_busy_while_free(const CheckerResult& r) {
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, "busy-while-free");
}

const CheckerResult& linearizability_of(const CheckReport& report) {
    for (const auto& c : report.checkers)
        if (c.name == "linearizability") return c;
    throw std::runtime_error("no linearizability checker");
}

}  // namespace

TEST(QuietAdvisory, TheStrictModelAloneCallsTheBusyAnswerAFinding) {
    auto b = busy_after_indeterminate_acquire(100);
    const auto r = advisory(b, false);
    expect_one_busy_while_free(r);
}

TEST(QuietAdvisory, ABusyAnswerWithinAnIndeterminateAcquiresLeaseGoesToDetails) {
    auto b = busy_after_indeterminate_acquire(100);  // 100 ms < 10 ms + 1000 ms lease
    const auto r = advisory(b, true);
    EXPECT_TRUE(r.violations.empty());
    EXPECT_EQ(r.valid, Validity::Unknown);  // no certificate: the strict model cannot express the lapsed lease
    EXPECT_EQ(r.stats["explained_by_indeterminate_acquires"], 1);
    ASSERT_EQ(r.stats["explained_findings"].size(), 1u);
    EXPECT_EQ(r.stats["explained_findings"][0]["kind"], "busy-while-free");
    EXPECT_EQ(r.stats["explained_findings"][0]["ops"], (std::vector<std::int64_t>{2, 3, 4, 5}));
}

TEST(QuietAdvisory, ABusyAnswerAfterEveryIndeterminateLeaseEndedStaysInTheHeadline) {
    auto b = busy_after_indeterminate_acquire(1500);  // 1500 ms > 10 ms + 1000 ms lease
    const auto r = advisory(b, true);
    expect_one_busy_while_free(r);
    EXPECT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.stats["explained_by_indeterminate_acquires"], 0);
}

TEST(QuietAdvisory, ARunOfLeasedLocksQuietsItsAdvisoryAndSaysSoInTheSummary) {
    auto b = busy_after_indeterminate_acquire(100);
    const auto report = run_checkers(b.history());
    EXPECT_EQ(report.valid, Validity::Valid);
    const auto& lin = linearizability_of(report);
    EXPECT_FALSE(lin.counts_toward_verdict);
    EXPECT_EQ(lin.violations_total(), 0u);
    EXPECT_NE(find_checker_descriptor("linearizability")
                  ->summary(lin)
                  .find("1 busy answer that indeterminate acquires explain (details)"),
              std::string::npos)
        << find_checker_descriptor("linearizability")->summary(lin);
}

TEST(QuietAdvisory, AnUnexplainedFindingKeepsItsPlaceBesideExplainedOnes) {
    auto b = busy_after_indeterminate_acquire(100);
    b.acquire_invoke(2000, 4);  // long after every lease: certainly free
    b.acquire_done(2010, 4, OpType::Fail);
    b.history().back().error = std::string(err::kHeld);
    b.session(5, 2100, 2110, 2200, 2210);
    const auto report = run_checkers(b.history());
    const auto& lin = linearizability_of(report);
    ASSERT_EQ(lin.violations.size(), 1u);
    EXPECT_NE(lin.violations[0].description.find("owner 'p4-"), std::string::npos) << lin.violations[0].description;
    EXPECT_EQ(lin.stats["explained_by_indeterminate_acquires"], 1);
}

namespace {

/// Worker 3's acquire is invoked at 0 and never answered; worker 2 is told
/// the lock is held 2 us later; worker 4 is granted it `grant_after_ms`
/// later and releases it (1000 ms leases).
HistoryBuilder busy_then_grant_after_unanswered_acquire(double grant_after_ms) {
    HistoryBuilder b;
    b.acquire_invoke(0, 3);
    b.acquire_invoke(0.001, 2);
    b.acquire_done(0.002, 2, OpType::Fail);
    b.history().back().error = std::string(err::kHeld);
    b.session(4, 0.002 + grant_after_ms - 0.001, 0.002 + grant_after_ms, 0.002 + grant_after_ms + 50,
              0.002 + grant_after_ms + 51);
    return b;
}

}  // namespace

TEST(QuietAdvisory, AnUnansweredAcquireExplainsNoBusyAnswerThatALaterGrantLeavesNoWorldFor) {
    // No lease lapses in 5 us, and an acquire never answered cannot have been
    // undone: in every world the server told worker 2 "held" for a lock it
    // then granted worker 4 while worker 3 still held it, or the lock was
    // free when it said "held". The model is broken in every world.
    auto b = busy_then_grant_after_unanswered_acquire(0.005);
    const auto r = advisory(b, true);
    expect_one_busy_while_free(r);
    EXPECT_EQ(r.stats["explained_by_indeterminate_acquires"], 0);
}

TEST(QuietAdvisory, AnUnansweredAcquireExplainsABusyAnswerWhenTheNextGrantFollowsItsLapse) {
    // Worker 4 is granted 1200 ms later: worker 3's lease may have begun at 0
    // and lapsed by 999 ms, so some world fits every grant.
    auto b = busy_then_grant_after_unanswered_acquire(1200);
    const auto r = advisory(b, true);
    EXPECT_TRUE(r.violations.empty());
    EXPECT_EQ(r.stats["explained_by_indeterminate_acquires"], 1);
}
