#include "nemesis/pause_client.hpp"

#include <spdlog/spdlog.h>

#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::vector<int> pause_client_candidates(const WorkerControl& workers, const PauseClientTarget& target) {
    return aimed_workers(workers, target);
}

std::optional<std::vector<std::string>> PauseClient::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForWorkerTarget;
    while (const auto target = wait_for_worker_target([this] { return pause_client_candidates(workers_, target_); },
                                                      event.pick, give_up, stop)) {
        std::lock_guard lock(mutex_);
        const auto struck = std::chrono::steady_clock::now();
        if (!workers_.pause_worker(*target)) continue;  // it was replaced meanwhile: choose again
        paused_ = *target;
        struck_ = struck;
        spdlog::info("pause-client: worker {} stopped", *target);
        return std::vector<std::string>{"worker " + std::to_string(*target)};
    }
    return std::nullopt;
}

std::optional<std::chrono::steady_clock::time_point> PauseClient::struck_at() const {
    std::lock_guard lock(mutex_);
    return struck_;
}

void PauseClient::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (paused_) workers_.resume_worker(*paused_);
    paused_.reset();
}

}  // namespace lockcheck
