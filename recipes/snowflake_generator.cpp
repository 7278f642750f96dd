#include "recipes/snowflake_generator.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace lockcheck {

std::int64_t snowflake_id(std::int64_t timestamp_ms, std::int64_t worker, std::int64_t sequence) {
    return (timestamp_ms << (kSnowflakeWorkerBits + kSnowflakeSequenceBits)) | (worker << kSnowflakeSequenceBits) |
           sequence;
}

SnowflakeGenerator::SnowflakeGenerator(SnowflakeClock& clock, std::int64_t worker, Backward backward,
                                       std::chrono::milliseconds max_wait)
    : clock_(clock), worker_(worker), backward_(backward), max_wait_(max_wait) {
    if (worker < 0 || worker > kSnowflakeMaxWorker)
        throw std::invalid_argument(
            fmt::format("snowflake worker id {} is outside [0, {}]", worker, kSnowflakeMaxWorker));
}

std::int64_t SnowflakeGenerator::wait_for(std::int64_t after_ms, bool inclusive, std::int64_t deadline_ns) {
    for (;;) {
        const std::int64_t ms = clock_.wall_ms();
        if (inclusive ? ms >= after_ms : ms > after_ms) return ms;
        if (clock_.steady_ns() >= deadline_ns) return ms;
        clock_.pause();
    }
}

std::variant<std::int64_t, SnowflakeGenerator::Refusal> SnowflakeGenerator::next() {
    const std::int64_t deadline_ns =
        clock_.steady_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(max_wait_).count();
    std::int64_t ms = clock_.wall_ms();
    if (ms < last_ms_ && backward_ == Backward::Guard) {
        ms = wait_for(last_ms_, /*inclusive=*/true, deadline_ns);
        if (ms < last_ms_)
            return Refusal{fmt::format("the clock is {} ms behind the last timestamp used, after waiting {} ms",
                                       last_ms_ - ms, max_wait_.count())};
    }
    std::int64_t sequence = 0;
    if (ms == last_ms_ && sequence_ < kSnowflakeMaxSequence) {
        sequence = sequence_ + 1;
    } else if (ms == last_ms_) {  // all 4096 ids of this millisecond are used: wait for the next one
        ms = wait_for(last_ms_, /*inclusive=*/false, deadline_ns);
        if (ms <= last_ms_)
            return Refusal{fmt::format("every sequence number of ms {} is used and the clock did not pass it in {} ms",
                                       last_ms_, max_wait_.count())};
    }
    // Any other reading (later, or earlier with Backward::Reuse) starts a new millisecond at sequence 0.
    const std::int64_t timestamp = ms - kSnowflakeEpochMs;
    if (timestamp < 0 || timestamp > kSnowflakeMaxTimestamp)
        return Refusal{fmt::format("the clock ({} ms since 1970) is outside the 41-bit range from the epoch", ms)};
    last_ms_ = ms;
    sequence_ = sequence;
    return snowflake_id(timestamp, worker_, sequence);
}

}  // namespace lockcheck
