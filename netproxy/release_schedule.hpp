// When the bytes read now may leave the proxy, for one direction of one
// connection: now + latency + a jitter draw, but never before the bytes read
// earlier, so a direction's bytes are released in the order they were read.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>

namespace lockcheck::netproxy {

using Clock = std::chrono::steady_clock;

class ReleaseSchedule {
public:
    /// `seed` makes the jitter draws reproducible.
    explicit ReleaseSchedule(std::uint64_t seed) : random_(seed) {}

    /// The release time of bytes read at `now`; never earlier than the time
    /// returned before.
    Clock::time_point next(Clock::time_point now, std::chrono::microseconds latency, std::chrono::microseconds jitter);

private:
    std::mt19937_64 random_;
    Clock::time_point last_{};
};

}  // namespace lockcheck::netproxy
