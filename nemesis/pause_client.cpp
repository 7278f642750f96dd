#include "nemesis/pause_client.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "nemesis/worker_target.hpp"

namespace lockcheck {

namespace {

/// `of` with the workers in `in` only.
std::vector<int> among(std::vector<int> of, const std::vector<int>& in) {
    std::erase_if(of, [&](int w) { return std::find(in.begin(), in.end(), w) == in.end(); });
    return of;
}

/// The holder, when it is the only worker holding or waiting for a lock.
std::vector<int> lone_holder(const WorkerControl& workers) {
    auto holders = workers.holders();
    std::sort(holders.begin(), holders.end());
    holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
    if (holders.size() != 1) return {};
    const auto waiting = workers.acquiring_for(std::chrono::milliseconds(0));
    const bool others_wait = std::any_of(waiting.begin(), waiting.end(), [&](int w) { return w != holders[0]; });
    return others_wait ? std::vector<int>{} : holders;
}

}  // namespace

const std::vector<std::string>& pause_aim_names() {
    static const std::vector<std::string> names{"any", "waiting", "renewing", "lone-holder"};
    return names;
}

std::optional<PauseAim> pause_aim_named(const std::string& name) {
    const auto& names = pause_aim_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::nullopt;
    return static_cast<PauseAim>(it - names.begin());
}

std::vector<int> pause_client_candidates(const WorkerControl& workers, const PauseClientTarget& target) {
    switch (target.aim) {
        case PauseAim::Waiting: return workers.acquiring_for(target.waiting_for);
        case PauseAim::Renewing:
            return workers.renews_sent() == 0 ? workers.holders() : among(workers.renewing(), workers.holders());
        case PauseAim::LoneHolder: return lone_holder(workers);
        case PauseAim::Any: break;
    }
    return workers.live_workers();
}

std::optional<std::vector<std::string>> PauseClient::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForWorkerTarget;
    while (const auto target = wait_for_worker_target([this] { return pause_client_candidates(workers_, target_); },
                                                      event.pick, give_up, stop)) {
        std::lock_guard lock(mutex_);
        if (!workers_.pause_worker(*target)) continue;  // it was replaced meanwhile: choose again
        paused_ = *target;
        spdlog::info("pause-client: worker {} stopped", *target);
        return std::vector<std::string>{"worker " + std::to_string(*target)};
    }
    return std::nullopt;
}

void PauseClient::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (paused_) workers_.resume_worker(*paused_);
    paused_.reset();
}

}  // namespace lockcheck
