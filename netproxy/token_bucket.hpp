// A bandwidth limit: a token bucket of bytes, refilled at the rate and holding
// at most a burst of 20 ms worth (at least 1500 bytes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "netproxy/release_schedule.hpp"

namespace lockcheck::netproxy {

class TokenBucket {
public:
    /// 0: unlimited. A new rate keeps the tokens saved, up to the new burst.
    void set_rate(std::uint64_t bytes_per_second, Clock::time_point now);
    bool limited() const { return rate_ > 0; }

    /// Whole bytes that may be written at `now` (SIZE_MAX when unlimited).
    std::size_t available(Clock::time_point now);
    /// Spends `count` tokens (after available()).
    void take(std::size_t count);
    /// When `count` bytes (at most one burst) will be available.
    Clock::time_point when_available(std::size_t count, Clock::time_point now);

private:
    void refill(Clock::time_point now);
    std::uint64_t rate_ = 0;
    double burst_ = 0;
    double tokens_ = 0;
    Clock::time_point refilled_at_{};
};

}  // namespace lockcheck::netproxy
