#include "netproxy/release_schedule.hpp"

#include <algorithm>

namespace lockcheck::netproxy {

Clock::time_point ReleaseSchedule::next(Clock::time_point now, std::chrono::microseconds latency,
                                        std::chrono::microseconds jitter) {
    auto release = now + latency;
    if (jitter.count() > 0) {
        std::uniform_int_distribution<std::chrono::microseconds::rep> draw(0, jitter.count());
        release += std::chrono::microseconds(draw(random_));
    }
    last_ = std::max(last_, release);
    return last_;
}

}  // namespace lockcheck::netproxy
