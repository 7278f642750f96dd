#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "checkers/checker_registry.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// Worker 1's lease runs out before it releases, so its release fails
/// not-owner; worker 2 takes the lock only after worker 1's release began.
/// No critical sections overlap, but the strict (lease-less) model still sees
/// worker 1 holding the lock when worker 2 gets it.
HistoryBuilder lease_ran_out(std::optional<std::int64_t> ttl_ms) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, ttl_ms.value_or(0));
    if (!ttl_ms) b.history().back().ttl_ms.reset();
    b.acquire_done(1, 1, OpType::Ok);
    b.release_invoke(1500, 1);
    b.release_done(1501, 1, OpType::Fail);
    b.history().back().error = "not-owner";
    b.acquire_invoke(1600, 2, ttl_ms.value_or(0));
    if (!ttl_ms) b.history().back().ttl_ms.reset();
    b.acquire_done(1601, 2, OpType::Ok);
    b.release_invoke(1700, 2);
    b.release_done(1701, 2, OpType::Ok);
    return b;
}

const CheckerResult& checker(const CheckReport& r, const std::string& name) {
    for (const auto& c : r.checkers)
        if (c.name == name) return c;
    throw std::runtime_error("no checker " + name);
}

}  // namespace

TEST(RunCheckers, LeasedLockIsJudgedByItsLeasesNotTheStrictModel) {
    auto b = lease_ran_out(1000);
    const auto report = run_checkers(b.history());
    EXPECT_EQ(checker(report, "mutual-exclusion").valid, Validity::Valid);
    EXPECT_EQ(checker(report, "linearizability").valid, Validity::Invalid);
    EXPECT_FALSE(checker(report, "linearizability").counts_toward_verdict);
    EXPECT_EQ(report.valid, Validity::Valid);
}

TEST(RunCheckers, LockWithoutLeasesIsJudgedStrictly) {
    auto b = lease_ran_out(std::nullopt);
    const auto report = run_checkers(b.history());
    EXPECT_TRUE(checker(report, "linearizability").counts_toward_verdict);
    EXPECT_EQ(checker(report, "linearizability").valid, Validity::Invalid);
    EXPECT_EQ(report.valid, Validity::Invalid);
}

TEST(RunCheckers, OverlapMakesTheRunInvalidEvenWithLeases) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 1000);
    b.acquire_done(1, 1, OpType::Ok);
    b.acquire_invoke(10, 2, 1000);
    b.acquire_done(11, 2, OpType::Ok);
    b.release_invoke(20, 1);
    b.release_done(21, 1, OpType::Ok);
    EXPECT_EQ(run_checkers(b.history()).valid, Validity::Invalid);
}

namespace {

std::vector<std::string> names(const CheckReport& report) {
    std::vector<std::string> out;
    for (const auto& c : report.checkers) out.push_back(c.name);
    return out;
}

}  // namespace

TEST(CheckerRegistry, ALockHistoryGetsTheLockCheckersInReportOrder) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    EXPECT_EQ(
        names(run_checkers(b.history())),
        (std::vector<std::string>{"mutual-exclusion", "resource", "linearizability", "liveness", "release-ownership"}));
}

TEST(CheckerRegistry, AHistoryWithoutClientOpsKeepsTheLockReportAndIsUnknown) {
    const auto report = run_checkers({});
    EXPECT_EQ(report.checkers.size(), 5u);
    EXPECT_EQ(report.valid, Validity::Unknown);
}

TEST(CheckerRegistry, AnOpOfAnotherWorkloadKeepsTheLockCheckersAway) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    b.add(20, 2, OpType::Invoke, std::string(fn::kDecrement));
    EXPECT_FALSE(history_is_lock(b.history()));
    EXPECT_EQ(names(run_checkers(b.history())), (std::vector<std::string>{"oversell", "liveness"}));
}

TEST(CheckerRegistry, EveryCheckerIsFoundByItsOwnName) {
    std::set<std::string_view> seen;
    for (const CheckerDescriptor* checker : checker_descriptors()) {
        EXPECT_TRUE(seen.insert(checker->name).second) << checker->name;
        EXPECT_EQ(find_checker_descriptor(checker->name), checker);
    }
    EXPECT_EQ(find_checker_descriptor("no-such-checker"), nullptr);
}
