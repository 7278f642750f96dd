// The unique-ids checker on constructed id-generator histories.
#include <gtest/gtest.h>

#include "checkers/run_checkers.hpp"
#include "checkers/unique_ids.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// An id history: each helper appends a generate-id invoke and its completion.
class Ids {
public:
    /// A generate-id of `key` by `process` that completed ok with `id`; returns the completion's index.
    std::int64_t issued(int process, std::int64_t id, const std::string& key = "seq") {
        const auto i = op(process, OpType::Ok, key);
        b.history().back().value = {{"id", id}};
        return i;
    }
    /// One that completed `type` without an id (fail: none issued; info: unknown).
    std::int64_t unanswered(int process, OpType type, const std::string& key = "seq") {
        const auto i = op(process, type, key);
        b.history().back().error = type == OpType::Fail ? "not executed: connection refused" : "timeout";
        return i;
    }
    CheckerResult check() { return check_unique_ids(b.history(), pair_ops(b.history())); }
    HistoryBuilder b;
    double t = 0;

private:
    std::int64_t op(int process, OpType type, const std::string& key) {
        b.add(t += 1, process, OpType::Invoke, std::string(fn::kGenerateId), key);
        return b.add(t += 1, process, type, std::string(fn::kGenerateId), key);
    }
};

}  // namespace

TEST(UniqueIds, DistinctIdsAreValid) {
    Ids h;
    for (int id = 1; id <= 5; ++id) h.issued(id % 2 + 1, id);
    const auto r = h.check();
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_TRUE(r.violations.empty());
    EXPECT_EQ(r.stats["issued"], 5);
    EXPECT_EQ(r.stats["keys"]["seq"]["lowest"], 1);
    EXPECT_EQ(r.stats["keys"]["seq"]["highest"], 5);
}

TEST(UniqueIds, AnIdIssuedTwiceIsReportedWithBothOps) {
    Ids h;
    h.issued(1, 1);
    const auto first = h.issued(2, 2);
    h.issued(1, 3);
    const auto again = h.issued(3, 2);  // a restarted counter hands out 2 again
    const auto r = h.check();
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    const Violation& v = r.violations[0];
    EXPECT_EQ(v.kind, kDuplicateId);
    EXPECT_EQ(v.ops, (std::vector<std::int64_t>{first, again}));
    EXPECT_EQ(v.details["id"], 2);
    EXPECT_EQ(v.details["key"], "seq");
    EXPECT_EQ(v.details["first"]["process"], 2);
    EXPECT_EQ(v.details["second"]["process"], 3);
    EXPECT_EQ(v.details["first"]["time_ns"], h.b.history()[static_cast<std::size_t>(first)].time);
    EXPECT_NE(v.description.find("id 2 was issued twice, to worker 2 (op 3"), std::string::npos) << v.description;
    EXPECT_EQ(r.stats["duplicates"], 1);
    EXPECT_EQ(r.stats["keys"]["seq"]["distinct"], 3);
}

TEST(UniqueIds, TheSameWorkerGettingAnIdTwiceIsADuplicateToo) {
    Ids h;
    h.issued(1, 7);
    h.issued(1, 7);
    EXPECT_EQ(h.check().valid, Validity::Invalid);
}

TEST(UniqueIds, AThirdIssueIsReportedAgainstTheFirst) {
    Ids h;
    const auto first = h.issued(1, 4);
    const auto second = h.issued(2, 4);
    const auto third = h.issued(3, 4);
    const auto r = h.check();
    ASSERT_EQ(r.violations.size(), 2u);
    EXPECT_EQ(r.violations[0].ops, (std::vector<std::int64_t>{first, second}));
    EXPECT_EQ(r.violations[1].ops, (std::vector<std::int64_t>{first, third}));
    EXPECT_EQ(r.stats["duplicates"], 2);
}

TEST(UniqueIds, EveryKeyIsItsOwnSequence) {
    Ids h;
    h.issued(1, 1, "orders");
    h.issued(2, 1, "invoices");  // the same number in another sequence is no duplicate
    h.issued(1, 2, "orders");
    const auto r = h.check();
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["keys"]["orders"]["issued"], 2);
    EXPECT_EQ(r.stats["keys"]["invoices"]["issued"], 1);
    h.issued(3, 1, "invoices");
    ASSERT_EQ(h.check().violations.size(), 1u);
    EXPECT_EQ(h.check().violations[0].details["key"], "invoices");
}

TEST(UniqueIds, InfoAndFailOpsCarryNoIdAndTakeNoPart) {
    Ids h;
    h.issued(1, 1);
    h.unanswered(2, OpType::Info);  // may have consumed id 2: nobody learned it
    h.unanswered(3, OpType::Fail);  // issued none
    h.issued(1, 3);
    const auto r = h.check();
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["indeterminate"], 1);
    EXPECT_EQ(r.stats["keys"]["seq"]["failed"], 1);
    EXPECT_EQ(r.stats["issued"], 2);
}

TEST(UniqueIds, AnIdOnAnInfoCompletionIsNotAnIssue) {
    // A completion that is not ok proves nothing about its value: even if it
    // carries one equal to an issued id, it is no duplicate.
    Ids h;
    h.issued(1, 5);
    h.unanswered(2, OpType::Info);
    h.b.history().back().value = {{"id", 5}};
    h.unanswered(3, OpType::Fail);
    h.b.history().back().value = {{"id", 5}};
    EXPECT_EQ(h.check().valid, Validity::Valid);
}

TEST(UniqueIds, ARequestCutOffByTheEndOfTheRunIsIndeterminate) {
    Ids h;
    h.issued(1, 1);
    h.b.add(h.t += 1, 2, OpType::Invoke, std::string(fn::kGenerateId), "seq");
    const auto r = h.check();
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["indeterminate"], 1);
}

TEST(UniqueIds, AnOkWithoutAnIntegerIdMakesTheVerdictUnknown) {
    Ids h;
    h.issued(1, 1);
    h.issued(2, 2);
    h.b.history().back().value = {{"id", "2"}};  // a string is no id
    const auto r = h.check();
    EXPECT_EQ(r.valid, Validity::Unknown);
    EXPECT_EQ(r.stats["without_id"], 1);
    EXPECT_TRUE(r.stats.contains("unknown_reason"));
}

TEST(UniqueIds, ADuplicateOutweighsAnOkWithoutAnId) {
    Ids h;
    h.issued(1, 1);
    h.issued(2, 1);
    h.issued(3, 2);
    h.b.history().back().value = nullptr;
    EXPECT_EQ(h.check().valid, Validity::Invalid);
}

TEST(UniqueIds, NoIdIssuedAtAllIsUnknown) {
    Ids h;
    h.unanswered(1, OpType::Fail);
    h.unanswered(2, OpType::Info);
    const auto r = h.check();
    EXPECT_EQ(r.valid, Validity::Unknown);
    EXPECT_EQ(r.stats["issued"], 0);
}

TEST(UniqueIds, OnlyTheFirstHundredDuplicatesAreListedButAllAreCounted) {
    Ids h;
    for (int id = 1; id <= 150; ++id) h.issued(1, id);
    for (int id = 1; id <= 150; ++id) h.issued(2, id);  // a counter that started over
    const auto r = h.check();
    EXPECT_EQ(r.violations.size(), 100u);
    EXPECT_EQ(r.unlisted_violations, 50u);
    EXPECT_EQ(r.violations_total(), 150u);
    EXPECT_EQ(r.stats["duplicates"], 150);
}

TEST(UniqueIds, RunCheckersJudgesAnIdHistoryByUniqueIdsAndLivenessOnly) {
    Ids h;
    h.issued(1, 1);
    h.issued(2, 1);
    EXPECT_TRUE(history_has_ids(h.b.history()));
    const auto report = run_checkers(h.b.history());
    ASSERT_EQ(report.checkers.size(), 2u);
    EXPECT_EQ(report.checkers[0].name, "unique-ids");
    EXPECT_EQ(report.checkers[1].name, "liveness");
    EXPECT_EQ(report.valid, Validity::Invalid);
}
