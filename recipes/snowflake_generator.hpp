// The Snowflake id scheme as Twitter published it (2010): a 64-bit id made of
//   bit 63       0
//   bits 62..22  41-bit timestamp: milliseconds since kSnowflakeEpochMs
//   bits 21..12  10-bit worker id
//   bits 11..0   12-bit sequence within the millisecond
// One generator per worker process. It reads its process's wall clock
// (CLOCK_REALTIME) for the timestamp. Within one millisecond the sequence
// counts up; when all 4096 values are used, it waits for the next
// millisecond. In a new millisecond the sequence starts at 0.
//
// What it does when the clock reads earlier than the last timestamp it used
// (a clock stepped back by NTP, a VM resumed, the client-clock-skew fault):
//   Backward::Reuse (the plain generator, as many implementations do): it
//     treats the reading as a new millisecond and starts the sequence at 0,
//     so it hands out again every id it issued in the milliseconds it
//     repeats;
//   Backward::Guard (the published scheme: "refuse to generate ids until
//     the clock catches up"): it waits, bounded by max_wait, until the clock
//     reaches the last timestamp again; if it is still behind, it refuses.
// No clock reading here: the clock is injected (SnowflakeClock), so the unit
// tests drive it (tests/recipes/snowflake_generator_test.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <variant>

namespace lockcheck {

inline constexpr int kSnowflakeTimestampBits = 41;
inline constexpr int kSnowflakeWorkerBits = 10;
inline constexpr int kSnowflakeSequenceBits = 12;
inline constexpr std::int64_t kSnowflakeMaxWorker = (std::int64_t{1} << kSnowflakeWorkerBits) - 1;
inline constexpr std::int64_t kSnowflakeMaxSequence = (std::int64_t{1} << kSnowflakeSequenceBits) - 1;
inline constexpr std::int64_t kSnowflakeMaxTimestamp = (std::int64_t{1} << kSnowflakeTimestampBits) - 1;
/// Twitter's published epoch, 2010-11-04T01:42:54.657Z, in ms since the Unix epoch.
inline constexpr std::int64_t kSnowflakeEpochMs = 1288834974657;

/// The id of (`timestamp_ms` since kSnowflakeEpochMs, `worker`, `sequence`),
/// each within its bits.
std::int64_t snowflake_id(std::int64_t timestamp_ms, std::int64_t worker, std::int64_t sequence);

/// The clock a generator reads.
class SnowflakeClock {
public:
    virtual ~SnowflakeClock() = default;
    /// The wall clock: ms since the Unix epoch (CLOCK_REALTIME).
    virtual std::int64_t wall_ms() = 0;
    /// A clock that never jumps (CLOCK_MONOTONIC), in ns: bounds the waits.
    virtual std::int64_t steady_ns() = 0;
    /// Waits a little (a fraction of a millisecond) before the next reading.
    virtual void pause() = 0;
};

class SnowflakeGenerator {
public:
    enum class Backward { Reuse, Guard };

    /// `worker` in [0, kSnowflakeMaxWorker]. `max_wait` bounds every wait of
    /// one next(): for the next millisecond after a full sequence, and (Guard)
    /// for the clock to catch up.
    SnowflakeGenerator(SnowflakeClock& clock, std::int64_t worker, Backward backward,
                       std::chrono::milliseconds max_wait);

    /// Why next() issued no id.
    struct Refusal {
        std::string reason;
    };

    /// A new id, or why none was issued (the clock behind the last timestamp
    /// after max_wait with Guard; no next millisecond within max_wait after a
    /// full sequence; a clock outside the 41 bits from the epoch).
    std::variant<std::int64_t, Refusal> next();

private:
    /// Reads the wall clock until it is past `after_ms` (or at it when
    /// `inclusive`), until `deadline_ns` of the steady clock; the last reading.
    std::int64_t wait_for(std::int64_t after_ms, bool inclusive, std::int64_t deadline_ns);

    SnowflakeClock& clock_;
    std::int64_t worker_;
    Backward backward_;
    std::chrono::milliseconds max_wait_;
    std::int64_t last_ms_ = -1;  ///< wall-clock ms of the last id issued (-1: none yet)
    std::int64_t sequence_ = 0;  ///< the sequence of the last id issued
};

}  // namespace lockcheck
