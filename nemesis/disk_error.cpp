#include "nemesis/disk_error.hpp"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <stdexcept>
#include <utility>

#include "clusters/power_loss.hpp"
#include "nemesis/delayed_restart.hpp"
#include "nemesis/power_loss.hpp"

namespace lockcheck {

unsyncedfs::DiskErrors disk_errors_for(const std::string& op) {
    if (op == "fsync") return {.fsync_errno = EIO, .write_errno = 0};
    if (op == "write") return {.fsync_errno = 0, .write_errno = ENOSPC};
    if (op == "both") return {.fsync_errno = EIO, .write_errno = ENOSPC};
    throw std::invalid_argument("disk_error_op " + op + " is none of fsync, write or both");
}

Node* disk_error_target(const std::vector<Node*>& capable, const std::vector<Node*>& lock_nodes, std::uint64_t pick) {
    const auto targets = power_loss_targets(PowerLoss::Reach::One, capable, lock_nodes, pick);
    if (!targets.empty()) return targets.front();
    return capable.size() == 1 ? capable.front() : nullptr;
}

std::optional<std::string> DiskError::unavailable_reason() const {
    if (!power_loss_nodes(locator_.topology()).empty()) return std::nullopt;
    return "the nodes keep no data on the lose-unsynced filesystem";
}

std::optional<std::vector<std::string>> DiskError::start(const FaultEvent& event, const std::stop_token& stop) {
    Node* node = disk_error_target(power_loss_nodes(locator_.topology()),
                                   locator_.nodes_of_current_lock(std::chrono::seconds(5), stop), event.pick);
    if (!node || stop.stop_requested()) return std::nullopt;
    {
        std::lock_guard lock(mutex_);
        struck_ = node;  // set first: a heal after a failed start still looks at the node
    }
    node->set_disk_errors(errors_);
    return std::vector<std::string>{node->name(), unsyncedfs::disk_errors_arguments(errors_)};
}

void DiskError::heal() noexcept {
    std::lock_guard lock(mutex_);
    restarts_.clear();
    Node* node = std::exchange(struck_, nullptr);
    if (!node) return;
    try {
        node->set_disk_errors({});
    } catch (const std::exception& e) {
        spdlog::warn("disk-error: the filesystem of {} did not heal: {}", node->name(), e.what());
    }
    if (node->running()) return;
    restarts_.push_back(start_node_again(*node, kind()));
    if (!restarts_.back().ready_ms) spdlog::warn("{}", restarts_.back().failure);
}

std::vector<NodeRestart> DiskError::restarts() const {
    std::lock_guard lock(mutex_);
    return restarts_;
}

}  // namespace lockcheck
