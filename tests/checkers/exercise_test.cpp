// The honest-verdict rule (checkers/exercise.hpp) through run_checkers, on
// constructed histories: a run that exercised nothing is unknown, with its
// reason; an invalid verdict stays invalid.
#include <gtest/gtest.h>

#include "checkers/exercise.hpp"
#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// A start-fault of `kind` by the nemesis at `t`: its invoke and its info,
/// which names `target` or, without one, records "no target".
void start_fault(HistoryBuilder& b, double t, const std::string& kind, std::optional<std::string> target) {
    b.add(t, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", kind}, {"id", 1}};
    b.add(t, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", kind}, {"id", 1}};
    if (target)
        b.history().back().value["targets"] = {*target};
    else
        b.history().back().error = "no target";
}

/// Worker 0's acquires all answered info, worker 1's one refused as held.
HistoryBuilder nothing_granted() {
    HistoryBuilder b;
    b.acquire_invoke(0, 0);
    b.acquire_done(10, 0, OpType::Info);
    b.acquire_invoke(20, 0);
    b.acquire_done(30, 0, OpType::Info);
    b.acquire_invoke(40, 1);
    b.acquire_done(50, 1, OpType::Fail);
    b.history().back().error = std::string(err::kHeld);
    return b;
}

const RunClaims kKillRestartAsked{std::vector<std::string>{"kill-restart"}};

}  // namespace

TEST(Exercise, ALockRunWithoutAGrantIsUnknownWithItsReason) {
    const auto report = run_checkers(nothing_granted().history());
    EXPECT_EQ(report.valid, Validity::Unknown);
    EXPECT_EQ(report.unknown_reason,
              "no acquire was granted in 3 attempts (2 unknown, 1 refused): see workers/worker-0.log");
    EXPECT_EQ(report.exercised["acquires_granted"], 0);
    EXPECT_EQ(report.exercised["acquire_attempts"], 3);
}

TEST(Exercise, UnansweredAndOtherwiseFailedAcquiresAreCountedApart) {
    HistoryBuilder b;
    b.acquire_invoke(0, 2);
    b.acquire_done(10, 2, OpType::Fail);
    b.history().back().error = "connection refused";
    b.acquire_invoke(20, 3);  // never answered
    EXPECT_EQ(run_checkers(b.history()).unknown_reason,
              "no acquire was granted in 2 attempts (1 unknown, 0 refused, 1 failed): see workers/worker-2.log");
}

TEST(Exercise, ANemesisThatNeverStruckMakesTheRunUnknown) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    start_fault(b, 5, "kill-restart", std::nullopt);
    const auto report = run_checkers(b.history(), kKillRestartAsked);
    EXPECT_EQ(report.valid, Validity::Unknown);
    EXPECT_EQ(report.unknown_reason,
              "the nemesis never struck (1 attempt, none hit a target): the run says nothing about kill-restart");
    EXPECT_EQ(report.exercised["faults_struck"], 0);
}

TEST(Exercise, ANemesisAskedForThatNeverStartedMakesTheRunUnknown) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    const auto report = run_checkers(b.history(), kKillRestartAsked);
    EXPECT_EQ(report.valid, Validity::Unknown);
    EXPECT_EQ(report.unknown_reason, "the nemesis never struck: the run says nothing about kill-restart");
}

TEST(Exercise, AGrantAndAStruckFaultAreValid) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    start_fault(b, 5, "kill-restart", "n1");
    const auto report = run_checkers(b.history(), kKillRestartAsked);
    EXPECT_EQ(report.valid, Validity::Valid);
    EXPECT_EQ(report.unknown_reason, "");
    EXPECT_EQ(report.exercised["faults_struck"], 1);
}

TEST(Exercise, AViolationStaysInvalidWhenNoFaultStruck) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(1, 1, OpType::Ok);
    b.acquire_invoke(10, 2);
    b.acquire_done(11, 2, OpType::Ok);
    b.release_invoke(20, 1);
    b.release_done(21, 1, OpType::Ok);
    start_fault(b, 5, "kill-restart", std::nullopt);
    const auto report = run_checkers(b.history(), kKillRestartAsked);
    EXPECT_EQ(report.valid, Validity::Invalid);
    EXPECT_EQ(report.unknown_reason, "");
}

TEST(Exercise, ABareHistoryIsJudgedByTheFaultsItShows) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    start_fault(b, 5, "pause-holder", std::nullopt);
    const auto report = run_checkers(b.history());  // no spec: the history's start-fault names the nemesis
    EXPECT_EQ(report.valid, Validity::Unknown);
    EXPECT_EQ(report.unknown_reason,
              "the nemesis never struck (1 attempt, none hit a target): the run says nothing about pause-holder");
}

TEST(Exercise, ARunWithoutANemesisNeedsNoFault) {
    HistoryBuilder b;
    b.session(1, 0, 1, 10, 11);
    EXPECT_EQ(run_checkers(b.history()).valid, Validity::Valid);
    EXPECT_EQ(run_checkers(b.history(), RunClaims{std::vector<std::string>{}}).valid, Validity::Valid);
    EXPECT_FALSE(run_checkers(b.history()).exercised.contains("faults_asked"));
}

TEST(Exercise, TheFaultsAskedForComeFromTheSpecsNemesisList) {
    EXPECT_EQ(faults_asked_by({{"nemesis", {"partition", "kill-restart"}}}),
              (std::vector<std::string>{"partition", "kill-restart"}));
    EXPECT_EQ(faults_asked_by({{"nemesis", nlohmann::json::array()}}), std::vector<std::string>{});
    EXPECT_EQ(faults_asked_by(nullptr), std::nullopt);
    EXPECT_EQ(faults_asked_by({{"nemesis", {1}}}), std::nullopt);
}
