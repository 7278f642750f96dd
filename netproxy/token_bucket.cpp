#include "netproxy/token_bucket.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lockcheck::netproxy {

namespace {
constexpr double kBurstSeconds = 0.02;
constexpr double kMinimumBurst = 1500;
}  // namespace

void TokenBucket::set_rate(std::uint64_t bytes_per_second, Clock::time_point now) {
    if (bytes_per_second == 0) {
        rate_ = 0;
        return;
    }
    refill(now);
    const bool was_unlimited = rate_ == 0;
    rate_ = bytes_per_second;
    burst_ = std::max(kMinimumBurst, static_cast<double>(rate_) * kBurstSeconds);
    tokens_ = was_unlimited ? burst_ : std::min(tokens_, burst_);
    refilled_at_ = now;
}

void TokenBucket::refill(Clock::time_point now) {
    if (rate_ == 0 || now <= refilled_at_) return;
    const double seconds = std::chrono::duration<double>(now - refilled_at_).count();
    tokens_ = std::min(burst_, tokens_ + seconds * static_cast<double>(rate_));
    refilled_at_ = now;
}

std::size_t TokenBucket::available(Clock::time_point now) {
    if (rate_ == 0) return std::numeric_limits<std::size_t>::max();
    refill(now);
    return static_cast<std::size_t>(std::floor(tokens_));
}

void TokenBucket::take(std::size_t count) {
    if (rate_ > 0) tokens_ -= static_cast<double>(count);
}

Clock::time_point TokenBucket::when_available(std::size_t count, Clock::time_point now) {
    if (rate_ == 0) return now;
    refill(now);
    const double wanted = std::min(static_cast<double>(count), burst_);
    if (tokens_ >= wanted) return now;
    const double seconds = (wanted - tokens_) / static_cast<double>(rate_);
    return now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)) +
           std::chrono::microseconds(1);
}

}  // namespace lockcheck::netproxy
