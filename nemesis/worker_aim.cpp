#include "nemesis/worker_aim.hpp"

#include <algorithm>

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

const std::vector<std::string>& worker_aim_names() {
    static const std::vector<std::string> names{"any", "waiting", "renewing", "lone-holder", "holder"};
    return names;
}

std::optional<WorkerAim> worker_aim_named(const std::string& name) {
    const auto& names = worker_aim_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) return std::nullopt;
    return static_cast<WorkerAim>(it - names.begin());
}

std::vector<int> aimed_workers(const WorkerControl& workers, const AimedTarget& target) {
    switch (target.aim) {
        case WorkerAim::Waiting: return workers.acquiring_for(target.waiting_for);
        case WorkerAim::Renewing:
            return workers.renews_sent() == 0 ? workers.holders() : among(workers.renewing(), workers.holders());
        case WorkerAim::LoneHolder: return lone_holder(workers);
        case WorkerAim::Holder: return workers.holders();
        case WorkerAim::Any: break;
    }
    return workers.live_workers();
}

}  // namespace lockcheck
