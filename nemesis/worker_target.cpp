#include "nemesis/worker_target.hpp"

#include <algorithm>
#include <thread>

namespace lockcheck {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(1);

}  // namespace

std::optional<int> wait_for_worker_target(const std::function<std::vector<int>()>& candidates, std::uint64_t pick,
                                          std::chrono::steady_clock::time_point give_up, const std::stop_token& stop) {
    while (!stop.stop_requested() && std::chrono::steady_clock::now() < give_up) {
        auto workers = candidates();
        if (workers.empty()) {
            std::this_thread::sleep_for(kPoll);
            continue;
        }
        std::sort(workers.begin(), workers.end());
        workers.erase(std::unique(workers.begin(), workers.end()), workers.end());
        return workers[pick % workers.size()];
    }
    return std::nullopt;
}

}  // namespace lockcheck
