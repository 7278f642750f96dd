#include "nemesis/client_clock_skew.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "clusters/clock_offset.hpp"
#include "clusters/runtimes/node_runtime.hpp"
#include "nemesis/worker_target.hpp"

namespace lockcheck {

std::filesystem::path worker_clock_dir(const std::filesystem::path& workers_dir, int process) {
    return workers_dir / fmt::format("worker-{}-clock", process);
}

std::optional<std::string> ClientClockSkew::unavailable_reason() const {
    if (workers_dir_.empty()) return "the workers do not run with the clock library";
    return std::nullopt;
}

std::optional<std::vector<std::string>> ClientClockSkew::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto give_up = std::chrono::steady_clock::now() + kWaitForWorkerTarget;
    // Aimed workers with an offset file: every one the run started with the library.
    const auto with_clock = [this] {
        auto workers = aimed_workers(workers_, target_);
        std::erase_if(workers, [this](int process) {
            return !std::filesystem::exists(clock_offset_file(worker_clock_dir(workers_dir_, process)));
        });
        return workers;
    };
    if (const auto target = wait_for_worker_target(with_clock, event.pick, give_up, stop)) {
        const auto dir = worker_clock_dir(workers_dir_, *target);
        action_.strike("worker " + std::to_string(*target),
                       [dir](const std::string& text) { rewrite_shared_file(clock_offset_file(dir), text); });
        spdlog::info("client-clock-skew: worker {}: {}", *target, clock_change_summary(action_.change()));
        return std::vector<std::string>{"worker " + std::to_string(*target)};
    }
    return std::nullopt;
}

void ClientClockSkew::heal() noexcept { action_.heal(); }

}  // namespace lockcheck
