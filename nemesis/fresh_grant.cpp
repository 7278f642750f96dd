#include "nemesis/fresh_grant.hpp"

#include <algorithm>

#include "core/interruptible_sleep.hpp"
#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::optional<int> await_fresh_grant(const WorkerControl& workers, std::uint64_t pick, std::int64_t after_ms,
                                     const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForFreshGrant;
    for (;;) {
        const auto since = std::chrono::steady_clock::now();
        const auto holder =
            wait_for_worker_target([&workers, since] { return workers.granted_since(since); }, pick, give_up, stop);
        if (!holder) return std::nullopt;
        if (!interruptible_sleep_for(stop, std::chrono::milliseconds(after_ms))) return std::nullopt;
        const auto holders = workers.holders();
        if (std::find(holders.begin(), holders.end(), *holder) != holders.end()) return holder;
    }
}

}  // namespace lockcheck
