// Adversarial histories for the checkers (issue 10, items 7 and 12): a
// violation still open when the history ends, and histories whose
// overlapping pairs grow with the square of their length (issue 33, item 15:
// many open locks are counted, not visited).
#include <gtest/gtest.h>

#include <algorithm>

#include "checkers/lock_sessions.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/overlap_sweep.hpp"
#include "checkers/resource.hpp"
#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

CheckerResult exclusion(const History& h) { return check_mutual_exclusion(h, pair_ops(h)); }

/// Appends a record unrelated to the lock (a nemesis invoke the run never completed).
void one_more_record(HistoryBuilder& b, double t_ms) {
    b.add(t_ms, kNemesisProcess, OpType::Invoke, "start-fault", "");
    b.history().back().value = {{"fault", "pause-holder"}, {"id", 1}};
}

/// Holder 1 never releases; holder 2's acquire ok, at `grant_ms`, is the last record.
HistoryBuilder grant_as_last_record(double grant_ms) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(grant_ms - 10, 2, 1000);
    b.acquire_done(grant_ms, 2, OpType::Ok);
    return b;
}

}  // namespace

// --- item 12: an overlap open when the history ends is an overlap

TEST(OverlapAtTheEnd, GrantWithinTheLeaseAsTheLastRecordIsAnOverlap) {
    auto b = grant_as_last_record(100);  // holder 1's lease runs until 999 ms
    const auto r = exclusion(b.history());
    EXPECT_EQ(r.valid, Validity::Invalid) << "used to be VALID: the open overlap ended with the history";
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOverlapWithinLease);
    EXPECT_EQ(r.violations[0].details["open_at_end"], true);
    EXPECT_EQ(r.violations[0].details["overlap_ms"], 0.0) << "it lasted at least until the last record";
    EXPECT_NE(r.violations[0].description.find("both still held it when the history ended"), std::string::npos)
        << r.violations[0].description;
    EXPECT_EQ(r.stats["within_lease"], 1);
}

TEST(OverlapAtTheEnd, GrantAfterTheLeaseAsTheLastRecordIsAnOverlap) {
    auto b = grant_as_last_record(1500);
    const auto r = exclusion(b.history());
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOverlapLeaseExpired);
    EXPECT_EQ(r.stats["lease_expired"], 1);
}

TEST(OverlapAtTheEnd, OneMoreRecordChangesNothingButTheDuration) {
    for (const double grant_ms : {100.0, 1500.0}) {
        auto b = grant_as_last_record(grant_ms);
        const auto at_end = exclusion(b.history());
        one_more_record(b, grant_ms + 1e-6);  // 1 ns later
        const auto later = exclusion(b.history());
        EXPECT_EQ(later.stats["overlaps"], at_end.stats["overlaps"]);
        EXPECT_EQ(later.stats["within_lease"], at_end.stats["within_lease"]);
        ASSERT_EQ(later.violations.size(), 1u);
        EXPECT_NEAR(later.violations[0].details["overlap_ms"].get<double>(), 1e-6, 1e-9);
    }
}

TEST(OverlapAtTheEnd, RunCheckersCallsTheRunInvalid) {
    auto b = grant_as_last_record(100);
    EXPECT_EQ(run_checkers(b.history()).valid, Validity::Invalid);
}

TEST(OverlapAtTheEnd, AHolderReleasingAtTheLastRecordOverlapsNothingStartedThen) {
    // Holder 1 starts releasing at the very instant holder 2's grant is recorded, before it:
    // the release comes first in the history, so holder 1 no longer holds.
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.acquire_invoke(50, 2, 1000);
    b.release_invoke(100, 1);
    b.acquire_done(100, 2, OpType::Ok);
    EXPECT_EQ(exclusion(b.history()).valid, Validity::Valid);
}

TEST(OverlapAtTheEnd, ALostHolderStillHoldsNothing) {
    // Holder 1's last op failed (its worker was replaced): its session ended there.
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(5, 1, OpType::Ok);
    b.read(10, 20, 1, 0, std::nullopt, OpType::Fail);
    b.acquire_invoke(30, 2, 1000);
    b.acquire_done(40, 2, OpType::Ok);
    EXPECT_EQ(exclusion(b.history()).valid, Validity::Valid);
}

// --- item 7: every overlap counted, evidence bounded

namespace {

/// `holders` sessions that all overlap: each acquires (lease 1 ms) before
/// any releases, and they release in the order they acquired. Holders listed
/// in `long_lease` ask for a lease that outlasts the history; those in
/// `late_release` release 5 s after all others.
History all_overlapping(int holders, const std::vector<int>& long_lease = {},
                        const std::vector<int>& late_release = {}) {
    const auto listed = [](const std::vector<int>& list, int i) {
        return std::find(list.begin(), list.end(), i) != list.end();
    };
    HistoryBuilder b;
    for (int i = 0; i < holders; ++i) {
        b.acquire_invoke(i, i, listed(long_lease, i) ? 1'000'000 : 1);
        b.acquire_done(i + 0.5, i, OpType::Ok);
    }
    double t = holders + 10.0;
    for (int i = 0; i < holders; ++i)
        if (!listed(late_release, i)) {
            b.release_invoke(t, i);
            b.release_done(t + 0.5, i, OpType::Ok);
            t += 1;
        }
    for (int i : late_release) {
        b.release_invoke(t + 5000, i);
        b.release_done(t + 5000.5, i, OpType::Ok);
        t += 1;
    }
    return std::move(b.history());
}

}  // namespace

TEST(OverlapMemory, ThreeThousandHoldersAreCountedExactlyWithBoundedEvidence) {
    constexpr int kHolders = 3000;
    const std::vector<int> long_lease{2900, 2950};    // their successors overlap them within the lease
    const std::vector<int> late_release{2990, 2991};  // the longest overlap, lease expired, found late
    const auto r = exclusion(all_overlapping(kHolders, long_lease, late_release));
    const std::size_t pairs = std::size_t{kHolders} * (kHolders - 1) / 2;  // 4,498,500
    EXPECT_EQ(r.valid, Validity::Invalid);
    EXPECT_EQ(r.stats["overlaps"].get<std::size_t>(), pairs);
    EXPECT_EQ(r.violations_total(), pairs);
    const std::size_t within = (kHolders - 1 - 2900) + (kHolders - 1 - 2950);  // 99 + 49
    EXPECT_EQ(r.stats["within_lease"].get<std::size_t>(), within);
    // A 1 ms lease granted by 0.5 ms after its invoke at i is over by i + 2.5 ms:
    // the next two holders (invoked at i + 1 and i + 2) may have come while it ran.
    const std::size_t undecided = (kHolders - 1 - 2) + (kHolders - 2 - 2);  // (i, i+1) and (i, i+2), short leases
    EXPECT_EQ(r.stats["lease_uncertain"].get<std::size_t>(), undecided);
    EXPECT_EQ(r.stats["lease_expired"].get<std::size_t>(), pairs - within - undecided);

    EXPECT_LE(r.violations.size(), 201u) << "the first 100, the 100 gravest, the longest";
    EXPECT_EQ(r.stats["overlaps_listed"].get<std::size_t>(), r.violations.size());
    EXPECT_EQ(r.unlisted_violations, pairs - r.violations.size());
    const auto listed_within = std::count_if(r.violations.begin(), r.violations.end(),
                                             [](const Violation& v) { return v.kind == kOverlapWithinLease; });
    EXPECT_EQ(static_cast<std::size_t>(listed_within), std::min<std::size_t>(within, 100))
        << "the overlaps within the lease are the gravest: found late, they are listed all the same";
    const auto longest =
        std::max_element(r.violations.begin(), r.violations.end(), [](const Violation& a, const Violation& b) {
            return a.details["overlap_ms"].get<double>() < b.details["overlap_ms"].get<double>();
        });
    EXPECT_EQ(longest->details["overlap_ms"], r.stats["longest_overlap_ms"]) << "the longest overlap is listed";
    EXPECT_EQ(longest->details["first_process"], 2990);
    EXPECT_EQ(longest->details["second_process"], 2991);
    EXPECT_TRUE(std::is_sorted(r.violations.begin(), r.violations.end(), [](const Violation& a, const Violation& b) {
        return a.ops[2] < b.ops[2];
    })) << "listed in the order found (by the later holder's grant)";
}

TEST(OverlapMemory, AFewOverlapsAreAllListed) {
    const auto r = exclusion(all_overlapping(20));
    EXPECT_EQ(r.violations.size(), 190u);
    EXPECT_EQ(r.unlisted_violations, 0u);
}

TEST(LostUpdateMemory, OverwrittenWritesAreCountedAndAFewListed) {
    // n workers read the register, then all write: write k overwrites k - 1 updates.
    constexpr int kWriters = 500;
    HistoryBuilder b;
    for (int i = 0; i < kWriters; ++i) b.read(i, i + 0.5, i, 0);
    for (int i = 0; i < kWriters; ++i) b.write(kWriters + i, kWriters + i + 0.5, i, 1);
    const auto r = check_resource(b.history(), pair_ops(b.history()));
    EXPECT_EQ(r.stats["lost_updates"], kWriters - 1);
    const auto& last = r.violations.back();
    EXPECT_EQ(last.details["overwritten_total"], kWriters - 1);
    EXPECT_EQ(last.details["overwritten"].size(), 20u);
    EXPECT_EQ(last.ops.size(), 22u) << "its read, 20 overwritten writes, the write";
    EXPECT_NE(last.description.find("overwriting 499 update(s)"), std::string::npos) << last.description;
}

// --- issue 33, item 15: many open locks were quadratic to check

TEST(OverlapMemory, ManyOpenLocksAreCountedWithoutClassifyingEachPair) {
    // 3,000 holders that never release, then 3,000 sessions one after
    // another: 13,498,500 overlapping pairs. The checker visited each (a
    // 100,000-process history with 50,000 open locks took 50 s); it now
    // counts them and classifies only the few it may list.
    constexpr int kOpen = 3000;
    HistoryBuilder b;
    for (int i = 0; i < 2 * kOpen; ++i) {
        const double at = 0.2 * i;
        b.acquire_invoke(at, i, 1000);
        b.acquire_done(at + 0.05, i, OpType::Ok);
        if (i < kOpen) continue;
        b.release_invoke(at + 0.1, i);
        b.release_done(at + 0.15, i, OpType::Ok);
    }
    const History& history = b.history();
    const auto partner = pair_ops(history);
    auto sessions = extract_sessions(history, partner);
    const OverlapTally tally = sweep_overlaps(sessions, std::vector<bool>(sessions.size(), false));
    const std::size_t pairs = std::size_t{kOpen} * (kOpen - 1) / 2 + std::size_t{kOpen} * kOpen;
    EXPECT_EQ(tally.overlaps, pairs);
    EXPECT_LT(tally.classified, std::size_t{200'000}) << "of " << pairs << " pairs";
    const auto r = check_mutual_exclusion(history, partner);
    EXPECT_EQ(r.stats["overlaps"].get<std::size_t>(), pairs);
    EXPECT_LE(r.violations.size(), 201u);
}
