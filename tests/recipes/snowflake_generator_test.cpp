// The Snowflake generator (recipes/snowflake_generator.hpp) on an injected
// clock: the bit layout, the sequence within a millisecond and its rollover,
// and what each variant does when the wall clock goes back. And the recipe's
// client (recipes/snowflake_ids.hpp) through the recipe registry.
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "recipes/recipes.hpp"
#include "recipes/snowflake_generator.hpp"
#include "recipes/snowflake_ids.hpp"

using namespace lockcheck;

namespace {

/// A wall clock the test steps; each pause() lets 0.1 ms pass on both clocks.
class SteppedClock : public SnowflakeClock {
public:
    std::int64_t wall_ns = (kSnowflakeEpochMs + 5'000) * 1'000'000;
    std::int64_t steady = 0;
    int pauses = 0;
    bool frozen = false;  ///< the wall clock does not move during pauses

    std::int64_t wall_ms() override { return wall_ns / 1'000'000; }
    std::int64_t steady_ns() override { return steady; }
    void pause() override {
        ++pauses;
        steady += 100'000;
        if (!frozen) wall_ns += 100'000;
    }
    /// The wall clock jumps by `ms` (negative: back); the steady clock stays.
    void step_ms(std::int64_t ms) { wall_ns += ms * 1'000'000; }
};

std::int64_t id_of(std::variant<std::int64_t, SnowflakeGenerator::Refusal> outcome) {
    if (const auto* refusal = std::get_if<SnowflakeGenerator::Refusal>(&outcome)) {
        ADD_FAILURE() << "refused: " << refusal->reason;
        return -1;
    }
    return std::get<std::int64_t>(outcome);
}

std::int64_t timestamp_of(std::int64_t id) { return id >> (kSnowflakeWorkerBits + kSnowflakeSequenceBits); }
std::int64_t worker_of(std::int64_t id) { return (id >> kSnowflakeSequenceBits) & kSnowflakeMaxWorker; }
std::int64_t sequence_of(std::int64_t id) { return id & kSnowflakeMaxSequence; }

constexpr auto kSecond = std::chrono::milliseconds(1000);

/// What a generator did when its clock went back after three milliseconds of ids.
struct BackStep {
    std::set<std::int64_t> issued;  ///< one id in each of three milliseconds
    std::int64_t next = -1;         ///< the id asked for after the clock went back
    int pauses = 0;                 ///< 0.1 ms pauses it waited for it
};

/// Three ids a millisecond apart, then the clock steps `back_ms` back from
/// the millisecond after the last one used, and one more id.
BackStep step_back_after_three_ms(SnowflakeGenerator::Backward backward, std::int64_t back_ms) {
    SteppedClock clock;
    SnowflakeGenerator generator(clock, 9, backward, kSecond);
    BackStep out;
    for (int ms = 0; ms < 3; ++ms, clock.step_ms(1)) out.issued.insert(id_of(generator.next()));
    clock.step_ms(-back_ms);
    out.next = id_of(generator.next());
    out.pauses = clock.pauses;
    return out;
}

}  // namespace

TEST(SnowflakeGenerator, LaysOutTimestampWorkerAndSequenceInTheirBits) {
    EXPECT_EQ(snowflake_id(1, 0, 0), std::int64_t{1} << 22);
    EXPECT_EQ(snowflake_id(0, 1, 0), std::int64_t{1} << 12);
    EXPECT_EQ(snowflake_id(0, 0, 1), 1);
    EXPECT_EQ(snowflake_id(kSnowflakeMaxTimestamp, kSnowflakeMaxWorker, kSnowflakeMaxSequence),
              std::numeric_limits<std::int64_t>::max())
        << "41 + 10 + 12 bits fill every bit but the sign";

    SteppedClock clock;
    SnowflakeGenerator generator(clock, 37, SnowflakeGenerator::Backward::Reuse, kSecond);
    const std::int64_t id = id_of(generator.next());
    EXPECT_EQ(timestamp_of(id), clock.wall_ms() - kSnowflakeEpochMs);
    EXPECT_EQ(worker_of(id), 37);
    EXPECT_EQ(sequence_of(id), 0);
    EXPECT_THROW(SnowflakeGenerator(clock, kSnowflakeMaxWorker + 1, SnowflakeGenerator::Backward::Reuse, kSecond),
                 std::invalid_argument);
    EXPECT_THROW(SnowflakeGenerator(clock, -1, SnowflakeGenerator::Backward::Reuse, kSecond), std::invalid_argument);
}

TEST(SnowflakeGenerator, CountsTheSequenceWithinAMillisecondAndWaitsForTheNextWhenItIsFull) {
    SteppedClock clock;
    SnowflakeGenerator generator(clock, 5, SnowflakeGenerator::Backward::Reuse, kSecond);
    const std::int64_t ms = clock.wall_ms();
    std::int64_t previous = -1;
    for (std::int64_t n = 0; n <= kSnowflakeMaxSequence; ++n) {
        const std::int64_t id = id_of(generator.next());
        EXPECT_EQ(sequence_of(id), n);
        EXPECT_GT(id, previous);
        previous = id;
    }
    EXPECT_EQ(clock.pauses, 0) << "4096 ids fit in one millisecond";
    const std::int64_t next = id_of(generator.next());
    EXPECT_GT(clock.pauses, 0) << "the 4097th waited";
    EXPECT_EQ(timestamp_of(next), ms + 1 - kSnowflakeEpochMs);
    EXPECT_EQ(sequence_of(next), 0);
    EXPECT_GT(next, previous);
    clock.step_ms(1);
    EXPECT_EQ(sequence_of(id_of(generator.next())), 0) << "a new millisecond starts at 0";
}

TEST(SnowflakeGenerator, RefusesWhenTheSequenceIsFullAndTheClockDoesNotMoveOn) {
    SteppedClock clock;
    clock.frozen = true;
    SnowflakeGenerator generator(clock, 5, SnowflakeGenerator::Backward::Reuse, std::chrono::milliseconds(2));
    for (std::int64_t n = 0; n <= kSnowflakeMaxSequence; ++n) id_of(generator.next());
    const auto outcome = generator.next();
    ASSERT_TRUE(std::holds_alternative<SnowflakeGenerator::Refusal>(outcome));
    EXPECT_NE(std::get<SnowflakeGenerator::Refusal>(outcome).reason.find("every sequence number"), std::string::npos);
    EXPECT_EQ(clock.pauses, 20) << "2 ms of 0.1 ms pauses";
}

TEST(SnowflakeGenerator, PlainGeneratorIssuesTheSameIdsAgainWhenTheClockGoesBack) {
    const BackStep step = step_back_after_three_ms(SnowflakeGenerator::Backward::Reuse, 3);  // to the first ms used
    EXPECT_EQ(step.next, *step.issued.begin()) << "same millisecond, same worker, sequence 0 again";
    EXPECT_EQ(step.pauses, 0) << "the plain generator never waits for the clock";
}

TEST(SnowflakeGenerator, GuardedGeneratorWaitsForTheClockToCatchUp) {
    const BackStep step = step_back_after_three_ms(SnowflakeGenerator::Backward::Guard, 4);  // 3 ms behind the last
    const std::int64_t last = *step.issued.rbegin();
    EXPECT_FALSE(step.issued.contains(step.next));
    EXPECT_GT(step.next, last);
    EXPECT_EQ(timestamp_of(step.next), timestamp_of(last)) << "it went on in the last millisecond it used";
    EXPECT_EQ(sequence_of(step.next), 1);
    EXPECT_EQ(step.pauses, 30) << "3 ms of 0.1 ms pauses";
}

TEST(SnowflakeGenerator, GuardedGeneratorRefusesWhileTheClockIsStillBehindAfterItsWait) {
    SteppedClock clock;
    SnowflakeGenerator generator(clock, 9, SnowflakeGenerator::Backward::Guard, std::chrono::milliseconds(1));
    const std::int64_t first = id_of(generator.next());
    clock.step_ms(-50);
    const auto outcome = generator.next();
    ASSERT_TRUE(std::holds_alternative<SnowflakeGenerator::Refusal>(outcome));
    EXPECT_NE(std::get<SnowflakeGenerator::Refusal>(outcome).reason.find("ms behind the last timestamp used"),
              std::string::npos)
        << std::get<SnowflakeGenerator::Refusal>(outcome).reason;
    EXPECT_EQ(clock.pauses, 10) << "it waited its 1 ms, no longer";
    clock.step_ms(50);  // the clock is back: the refusal left no trace
    const std::int64_t next = id_of(generator.next());
    EXPECT_GT(next, first);
}

TEST(SnowflakeGenerator, GuardedGeneratorWithoutWaitRefusesAtOnce) {
    SteppedClock clock;
    SnowflakeGenerator generator(clock, 9, SnowflakeGenerator::Backward::Guard, std::chrono::milliseconds(0));
    id_of(generator.next());
    clock.step_ms(-1);
    EXPECT_TRUE(std::holds_alternative<SnowflakeGenerator::Refusal>(generator.next()));
    EXPECT_EQ(clock.pauses, 0);
}

TEST(SnowflakeGenerator, RefusesAClockBeforeItsEpoch) {
    SteppedClock clock;
    clock.wall_ns = (kSnowflakeEpochMs - 1) * 1'000'000;
    SnowflakeGenerator generator(clock, 0, SnowflakeGenerator::Backward::Reuse, kSecond);
    EXPECT_TRUE(std::holds_alternative<SnowflakeGenerator::Refusal>(generator.next()));
}

TEST(SnowflakeIds, RecipeClientsTakeTheirWorkerIdFromTheProcessNumber) {
    EXPECT_EQ(snowflake_worker_id(3), 3);
    EXPECT_EQ(snowflake_worker_id(1024 + 3), 3);
    for (const char* recipe : {"snowflake-ids", "snowflake-ids-guarded"}) {
        const auto client =
            make_lock_client(recipe, {"127.0.0.1:1"}, {std::chrono::milliseconds(100), std::nullopt, 1030});
        WorkerRequest request;
        request.f = "generate-id";
        request.key = "lock";
        const LockResult first = client->invoke(request);
        ASSERT_EQ(first.type, OpType::Ok) << recipe << ": " << first.error.value_or("");
        const std::int64_t id = first.value.at("id").get<std::int64_t>();
        EXPECT_EQ(worker_of(id), 6) << recipe;
        const LockResult second = client->invoke(request);
        ASSERT_EQ(second.type, OpType::Ok) << recipe;
        EXPECT_NE(second.value.at("id").get<std::int64_t>(), id) << recipe;
    }
    EXPECT_THROW(make_lock_client("snowflake-ids-guarded", {"127.0.0.1:1"}, {}, {{"max_wait_ms", -1}}),
                 std::invalid_argument);
}
