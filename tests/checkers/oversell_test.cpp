// The oversell checker on constructed stock-decrement histories.
#include <gtest/gtest.h>

#include "checkers/oversell.hpp"
#include "checkers/run_checkers.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// A stock history on key "item": op helpers append an invoke and its completion.
class Stock {
public:
    void init(int process, std::int64_t stock) {
        op(process, fn::kStockInit, OpType::Ok);
        b.history().back().value = {{"stock", stock}};
    }
    std::int64_t sell(int process, OpType type = OpType::Ok) {
        const auto i = op(process, fn::kDecrement, type);
        if (type == OpType::Fail) b.history().back().error = std::string(err::kSoldOut);
        if (type == OpType::Info) b.history().back().error = "connection lost";
        return i;
    }
    std::int64_t read(int process, std::int64_t left) {
        const auto i = op(process, fn::kStockRead, OpType::Ok);
        b.history().back().value = left;
        return i;
    }
    CheckerResult check() { return check_oversell(b.history(), pair_ops(b.history())); }
    HistoryBuilder b;

private:
    double t = 0;
    std::int64_t op(int process, std::string_view f, OpType type) {
        b.add(t += 1, process, OpType::Invoke, std::string(f), "item");
        return b.add(t += 1, process, type, std::string(f), "item");
    }
};

}  // namespace

TEST(Oversell, SalesWithinTheStockAndAMatchingFinalStockAreValid) {
    Stock s;
    s.init(1, 3);
    s.sell(1), s.sell(2), s.sell(1);
    s.sell(2, OpType::Fail);  // sold out
    s.read(1, 0);
    const auto r = s.check();
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["sold"], 3);
    EXPECT_EQ(r.stats["keys"]["item"]["sold_out"], 1);
    EXPECT_EQ(r.stats["keys"]["item"]["final"], 0);
}

TEST(Oversell, MoreCertainSalesThanStockIsAnOversell) {
    Stock s;
    s.init(1, 2);
    s.sell(1), s.sell(2);
    const auto third = s.sell(3);
    const auto r = s.check();
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kOversell);
    EXPECT_EQ(r.violations[0].ops.back(), third);
    EXPECT_EQ(r.stats["oversold"], 1);
}

TEST(Oversell, AnIndeterminateDecrementIsNotACertainSale) {
    Stock s;
    s.init(1, 2);
    s.sell(1), s.sell(2);
    s.sell(3, OpType::Info);  // may have sold a third one: not certain, so no oversell
    s.read(1, 0);             // and the final stock 0 is consistent with it
    const auto r = s.check();
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_EQ(r.stats["sold"], 2);
    EXPECT_EQ(r.stats["indeterminate"], 1);
}

TEST(Oversell, AnIndeterminateDecrementMayOrMayNotHaveTakenEffect) {
    Stock s;
    s.init(1, 5);
    s.sell(1);
    s.sell(2, OpType::Info);
    s.read(1, 4);  // the info decrement did not take effect: consistent too
    EXPECT_EQ(s.check().valid, Validity::Valid);
}

TEST(Oversell, FinalStockAboveInitialMinusCertainSalesIsAMismatch) {
    Stock s;
    s.init(1, 5);
    s.sell(1), s.sell(2);
    const auto read = s.read(1, 4);  // one acknowledged sale was forgotten (a crash lost it)
    const auto r = s.check();
    EXPECT_EQ(r.valid, Validity::Invalid);
    ASSERT_EQ(r.violations.size(), 1u);
    EXPECT_EQ(r.violations[0].kind, kStockMismatch);
    EXPECT_EQ(r.violations[0].ops.back(), read);
}

TEST(Oversell, FinalStockBelowEverySaleIsAMismatch) {
    Stock s;
    s.init(1, 5);
    s.sell(1);
    s.read(1, 2);  // 5 - 1 sale = 4 expected, 2 found
    EXPECT_EQ(s.check().violations.at(0).kind, kStockMismatch);
}

TEST(Oversell, AReadWhileDecrementsAreStillRunningIsNotTheFinalStock) {
    Stock s;
    s.init(1, 5);
    s.b.add(100, 2, OpType::Invoke, std::string(fn::kDecrement), "item");  // in flight during the read
    s.b.add(101, 1, OpType::Invoke, std::string(fn::kStockRead), "item");
    s.b.add(102, 1, OpType::Ok, std::string(fn::kStockRead), "item");
    s.b.history().back().value = 5;
    s.b.add(103, 2, OpType::Ok, std::string(fn::kDecrement), "item");
    const auto r = s.check();
    EXPECT_EQ(r.valid, Validity::Valid);
    EXPECT_TRUE(r.stats["keys"]["item"]["final"].is_null());
}

TEST(Oversell, WithoutAnInitialStockTheVerdictIsUnknown) {
    Stock s;
    s.sell(1);
    EXPECT_EQ(s.check().valid, Validity::Unknown);
}

TEST(Oversell, RunCheckersJudgesAStockHistoryByOversellAndLivenessOnly) {
    Stock s;
    s.init(1, 1);
    s.sell(1), s.sell(2);
    const auto report = run_checkers(s.b.history());
    ASSERT_EQ(report.checkers.size(), 2u);
    EXPECT_EQ(report.checkers[0].name, "oversell");
    EXPECT_EQ(report.checkers[1].name, "liveness");
    EXPECT_EQ(report.valid, Validity::Invalid);
}

TEST(Oversell, NoSaleAtAllIsUnknownWithItsReason) {
    Stock s;
    s.init(1, 3);
    s.sell(1, OpType::Info), s.sell(2, OpType::Info);
    const auto r = s.check();
    EXPECT_EQ(r.valid, Validity::Unknown);
    EXPECT_EQ(r.stats["unknown_reason"],
              "no decrement completed ok in 2 attempts (2 unknown, 0 refused): nothing could be oversold");
    EXPECT_EQ(run_checkers(s.b.history()).unknown_reason,
              "oversell: no decrement completed ok in 2 attempts (2 unknown, 0 refused): nothing could be oversold");
}
