// The fault proxy's parts on their own: the delay line's order, release
// times with jitter, the token bucket, and how faults combine.
#include <gtest/gtest.h>

#include <algorithm>

#include "netproxy/delay_line.hpp"
#include "netproxy/fault.hpp"
#include "netproxy/release_schedule.hpp"
#include "netproxy/token_bucket.hpp"

namespace lockcheck::netproxy {
namespace {

using namespace std::chrono_literals;

std::span<const std::byte> bytes_of(const std::string& text) {
    return std::as_bytes(std::span(text.data(), text.size()));
}

std::string text_of(std::span<const std::byte> bytes) {
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

TEST(NetproxyDelayLine, ReleasesChunksInOrderAtTheirTime) {
    const auto t0 = Clock::now();
    DelayLine line;
    line.push(bytes_of("ab"), t0 + 10ms);
    line.push(bytes_of("cd"), t0 + 10ms);  // same time: merged
    line.push(bytes_of("ef"), t0 + 20ms);
    EXPECT_EQ(line.size(), 6u);
    EXPECT_TRUE(line.released_front(t0 + 9ms).empty());
    EXPECT_EQ(line.next_release(), t0 + 10ms);
    EXPECT_EQ(text_of(line.released_front(t0 + 15ms)), "abcd");
    line.consume(3);
    EXPECT_EQ(text_of(line.released_front(t0 + 15ms)), "d");
    line.consume(1);
    EXPECT_TRUE(line.released_front(t0 + 15ms).empty()) << "ef is not due before 20 ms";
    EXPECT_EQ(text_of(line.released_front(t0 + 20ms)), "ef");
    EXPECT_EQ(line.clear(), 2u);
    EXPECT_TRUE(line.empty());
    EXPECT_FALSE(line.next_release());
}

TEST(NetproxyDelayLine, RefusesAReleaseBeforeTheTail) {
    const auto t0 = Clock::now();
    DelayLine line;
    line.push(bytes_of("a"), t0 + 10ms);
    EXPECT_THROW(line.push(bytes_of("b"), t0 + 5ms), std::logic_error);
    EXPECT_THROW(line.consume(2), std::logic_error);
}

TEST(NetproxyReleaseSchedule, JitterNeverReordersAndStaysWithinBounds) {
    ReleaseSchedule schedule(7);
    auto now = Clock::now();
    auto previous = Clock::time_point{};
    bool some_draw_was_clamped = false;
    for (int i = 0; i < 10'000; ++i) {
        now += 10us;
        const auto release = schedule.next(now, 1ms, 5ms);
        EXPECT_GE(release, previous);
        EXPECT_GE(release, now + 1ms);
        EXPECT_LE(release, now + 6ms);
        if (release == previous) some_draw_was_clamped = true;
        previous = release;
    }
    EXPECT_TRUE(some_draw_was_clamped) << "jitter far above the read spacing must hit the order clamp";
}

TEST(NetproxyReleaseSchedule, NoLatencyReleasesAtOnce) {
    ReleaseSchedule schedule(1);
    const auto now = Clock::now();
    EXPECT_EQ(schedule.next(now, 0us, 0us), now);
}

TEST(NetproxyTokenBucket, PacesToTheRate) {
    const auto t0 = Clock::now();
    TokenBucket bucket;
    EXPECT_FALSE(bucket.limited());
    EXPECT_EQ(bucket.available(t0), std::numeric_limits<std::size_t>::max());
    bucket.set_rate(100'000, t0);  // burst: 20 ms = 2000 bytes
    EXPECT_EQ(bucket.available(t0), 2000u);
    bucket.take(2000);
    EXPECT_EQ(bucket.available(t0), 0u);
    EXPECT_EQ(bucket.available(t0 + 10ms), 1000u);
    const auto ready = bucket.when_available(2000, t0 + 10ms);
    EXPECT_GE(ready, t0 + 20ms);
    EXPECT_LE(ready, t0 + 21ms);
    EXPECT_EQ(bucket.available(t0 + 1s), 2000u) << "never more than one burst saved";
    bucket.set_rate(0, t0 + 1s);
    EXPECT_FALSE(bucket.limited());
}

TEST(NetproxyTokenBucket, ReleaseTimesOfAStreamNeverOutrunTheRate) {
    // What the proxy does with a limited direction: write what is available,
    // else wait until when_available() for the next chunk.
    const auto t0 = Clock::now();
    constexpr std::uint64_t rate = 50'000;  // burst: 1500 bytes (20 ms is only 1000)
    constexpr std::size_t total = 200'000, chunk = 1400;
    TokenBucket bucket;
    bucket.set_rate(rate, t0);
    auto now = t0;
    std::size_t sent = 0;
    while (sent < total) {
        const std::size_t want = std::min(chunk, total - sent);
        if (bucket.available(now) < want) now = bucket.when_available(want, now);
        ASSERT_GE(bucket.available(now), want);
        bucket.take(want);
        sent += want;
        // Never more than one burst ahead of the rate.
        const double allowed = 1500 + static_cast<double>(rate) * std::chrono::duration<double>(now - t0).count();
        ASSERT_LE(static_cast<double>(sent), allowed + 1) << "at " << sent << " bytes";
    }
    const double seconds = std::chrono::duration<double>(now - t0).count();
    EXPECT_GE(seconds, (total - 1500) / double(rate) - 0.001);
    EXPECT_LE(seconds, total / double(rate) + 0.01) << "and it does not wait longer than the rate needs";
}

TEST(NetproxyFaults, NamedFaultsSayWhatTheyDo) {
    EXPECT_EQ(faults::pass(), LinkFault{});
    EXPECT_EQ(faults::slow_reply(300ms).to_client.latency, 300ms);
    EXPECT_EQ(faults::slow_reply(300ms).to_server, DirectionFault{});
    EXPECT_EQ(faults::blackhole().to_server.flow, Flow::discard);
    EXPECT_EQ(faults::drop().to_client.flow, Flow::stall);
    EXPECT_TRUE(faults::drop().hang_new_connects);
    EXPECT_TRUE(faults::reset().reset_connections);
    EXPECT_EQ(describe(faults::slow_reply(300ms)), "to_server pass, to_client pass +300000us");
}

TEST(NetproxyFaults, CombineAddsDelaysAndKeepsTheStrongerFlowAndLowerBandwidth) {
    const auto both = combine(combine(faults::delay(1ms, 2ms), faults::slow_reply(5ms)),
                              combine(faults::bandwidth(1000), faults::bandwidth(500)));
    EXPECT_EQ(both.to_client.latency, 6ms);
    EXPECT_EQ(both.to_client.jitter, 2ms);
    EXPECT_EQ(both.to_server.latency, 1ms);
    EXPECT_EQ(both.to_server.bytes_per_second, 500u);
    EXPECT_EQ(combine(faults::drop(), faults::blackhole()).to_server.flow, Flow::discard);
    EXPECT_EQ(combine(faults::pass(), faults::drop()).to_server.flow, Flow::stall);
    EXPECT_TRUE(combine(faults::pass(), faults::reset()).reset_connections);
}

TEST(NetproxyFaults, ValidateRejectsNegativeOrHugeDurations) {
    EXPECT_NO_THROW(validate(faults::delay(24h)));
    EXPECT_THROW(validate(faults::delay(-1us)), std::invalid_argument);
    EXPECT_THROW(validate(faults::delay(0us, 25h)), std::invalid_argument);
}

}  // namespace
}  // namespace lockcheck::netproxy
