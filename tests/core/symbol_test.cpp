// Interned op fields (core/symbol.hpp) and the 8-byte optional integer
// (core/optional_int64.hpp): they must read, compare and serialise as the
// std::string and std::optional fields they replace, and keep Op small.
#include "core/symbol.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/op.hpp"
#include "core/optional_int64.hpp"

using namespace lockcheck;

TEST(Symbol, EqualTextsAreOneEntryOfTheTable) {
    const std::string built = std::string("lock-") + "7";
    const Symbol a("lock-7");
    const Symbol b(built);
    EXPECT_EQ(&a.str(), &b.str());
    EXPECT_EQ(a, b);
    EXPECT_NE(Symbol("lock-8"), a);
    EXPECT_EQ(a, "lock-7");
    EXPECT_EQ(a, std::string_view("lock-7"));
    EXPECT_EQ(a, built);
    EXPECT_LT(Symbol("a"), Symbol("b"));
    EXPECT_TRUE(Symbol().empty());
    EXPECT_EQ(Symbol(), "");
    EXPECT_EQ("key " + a + "!", "key lock-7!");
}

TEST(Symbol, ManyThreadsInterningTheSameTextsGetTheSameEntries) {
    constexpr int kThreads = 8;
    constexpr int kTexts = 2000;
    std::vector<std::vector<const std::string*>> seen(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([t, &seen] {
            for (int i = 0; i < kTexts; ++i) {
                const int n = (i * 7 + t * 13) % kTexts;  // each thread in another order
                seen[t].push_back(&Symbol("symbol-test-" + std::to_string(n)).str());
            }
        });
    for (auto& thread : threads) thread.join();
    for (int i = 0; i < kTexts; ++i) {
        const Symbol expected("symbol-test-" + std::to_string(i));
        std::set<const std::string*> entries;
        for (int t = 0; t < kThreads; ++t)
            for (int j = 0; j < kTexts; ++j)
                if (*seen[t][j] == expected.str()) entries.insert(seen[t][j]);
        ASSERT_EQ(entries.size(), 1u) << expected.str();
        EXPECT_EQ(*entries.begin(), &expected.str());
    }
}

TEST(OptionalSymbol, AbsentIsNotTheEmptyText) {
    OptionalSymbol absent;
    const OptionalSymbol empty("");
    EXPECT_FALSE(absent.has_value());
    EXPECT_TRUE(empty.has_value());
    EXPECT_NE(absent, empty);
    EXPECT_EQ(absent, std::nullopt);
    EXPECT_NE(empty, std::nullopt);
    EXPECT_NE(absent, "");
    EXPECT_EQ(absent.value_or("none"), "none");
    EXPECT_THROW((void)absent.value(), std::bad_optional_access);
    absent = std::string("held");
    EXPECT_EQ(absent, "held");
    EXPECT_EQ(absent->size(), 4u);
    EXPECT_EQ(absent.to_optional(), std::optional<std::string>("held"));
    absent = std::nullopt;
    EXPECT_EQ(absent.to_optional(), std::nullopt);
    EXPECT_EQ(nlohmann::json(absent), nlohmann::json());
    EXPECT_EQ(nlohmann::json(OptionalSymbol("n1")), nlohmann::json("n1"));
}

TEST(OptionalInt64, HoldsEveryValueButTheMarkerOfAbsence) {
    OptionalInt64 token;
    EXPECT_FALSE(token.has_value());
    EXPECT_EQ(token, std::nullopt);
    token = 0;
    EXPECT_TRUE(token.has_value());
    EXPECT_EQ(*token, 0);
    EXPECT_NE(token, std::nullopt);
    token = OptionalInt64::kAbsent + 1;
    EXPECT_EQ(token.value(), OptionalInt64::kAbsent + 1);
    EXPECT_EQ(std::optional<std::int64_t>(OptionalInt64(5)), std::optional<std::int64_t>(5));
    EXPECT_EQ(std::optional<std::int64_t>(OptionalInt64()), std::nullopt);
    token.reset();
    EXPECT_EQ(token.value_or(-3), -3);
    EXPECT_THROW((void)token.value(), std::bad_optional_access);
}

TEST(OpRecord, TheMarkerOfAnAbsentTokenIsRefusedInAHistory) {
    nlohmann::json record = {{"index", 0}, {"time", 1}, {"process", 0}, {"type", "ok"},
                             {"f", "acquire"}, {"token", OptionalInt64::kAbsent}};
    EXPECT_THROW(op_from_json(record), OpFormatError);
    record["token"] = OptionalInt64::kAbsent + 1;
    EXPECT_EQ(*op_from_json(record).token, OptionalInt64::kAbsent + 1);
}

TEST(OpRecord, LeasesBeyondAnHourAreRefusedNamingTheField) {
    // A ttl of 2^44 ms once reached the checkers and overflowed their arithmetic.
    nlohmann::json record = {{"index", 0}, {"time", 1}, {"process", 0}, {"type", "invoke"}, {"f", "acquire"}};
    for (const std::int64_t ttl : {std::int64_t{1} << 44, std::int64_t{1} << 53, INT64_MAX, std::int64_t{3'600'001},
                                   std::int64_t{0}}) {
        record["ttl_ms"] = ttl;
        try {
            (void)op_from_json(record);
            ADD_FAILURE() << "ttl_ms " << ttl << " accepted";
        } catch (const OpFormatError& e) {
            EXPECT_NE(std::string(e.what()).find("field 'ttl_ms' must be from 1 to 3600000 ms (1 h)"),
                      std::string::npos)
                << e.what();
        }
    }
    record["ttl_ms"] = 3'600'000;
    EXPECT_EQ(op_from_json(record).ttl_ms, 3'600'000);
    record.erase("ttl_ms");
    record["valid_ms"] = -3'600'001;
    EXPECT_THROW(op_from_json(record), OpFormatError);
    record["valid_ms"] = -3'600'000;
    EXPECT_EQ(op_from_json(record).valid_ms, -3'600'000);
}

TEST(OptionalMs, ReadsAsSixtyFourBitsSoProductsDoNotOverflow) {
    const OptionalMs ttl = std::int64_t{3'600'000};
    EXPECT_EQ(*ttl * 1'000'000, 3'600'000'000'000);
    EXPECT_TRUE(OptionalMs::fits(2'147'483'647));
    EXPECT_FALSE(OptionalMs::fits(2'147'483'648));
    EXPECT_FALSE(OptionalMs::fits(OptionalMs::kAbsent));
    EXPECT_EQ(sizeof(OptionalMs), 4u);
}

TEST(OpRecord, AnOpIsAtMost112Bytes) {
    // The point of interning: 10M ops must fit in memory (docs/benchmarks.md).
    EXPECT_LE(sizeof(Op), 112u);
}

TEST(OpRecord, RoundTripsThroughJsonWithInternedFields) {
    Op op;
    op.index = 3;
    op.time = 40;
    op.process = 2;
    op.type = OpType::Fail;
    op.f = fn::kAcquire;
    op.key = "lock-0";
    op.error = err::kHeld;
    op.node = "n2";
    op.ttl_ms = 5000;
    op.valid_ms = -12;
    op.owner = "w2-9";
    const Op back = op_from_json(op_to_json(op));
    EXPECT_EQ(back.valid_ms, -12);
    EXPECT_EQ(back.f, fn::kAcquire);
    EXPECT_EQ(back.key, "lock-0");
    EXPECT_EQ(back.error, err::kHeld);
    EXPECT_EQ(back.node, "n2");
    EXPECT_EQ(back.ttl_ms, 5000);
    EXPECT_EQ(back.token, std::nullopt);
    EXPECT_EQ(back.resource, std::nullopt);
    EXPECT_EQ(op_to_json(back), op_to_json(op));
}
