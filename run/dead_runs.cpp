#include "run/dead_runs.hpp"

#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <thread>

#include "clusters/runtimes/docker_network.hpp"
#include "clusters/servers/mariadb_node.hpp"
#include "host/run_containment.hpp"
#include "clusters/network/run_network_cleanup.hpp"
#include "clusters/runtimes/ssh_run_record.hpp"
#include "host/state_directory.hpp"
#include "run/run_liveness.hpp"
#include "run/run_scratch.hpp"
#include "unsyncedfs/mounts.hpp"

namespace lockcheck {
namespace {

/// Run ids with a lock file or a scratch link under STATE_DIR/runs.
std::set<std::string> run_ids_in_state_directory() {
    std::set<std::string> ids;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(state_directory() / "runs", ec))
        ids.insert(entry.path().stem().string());
    return ids;
}

}  // namespace

std::filesystem::path clean_lock_path() { return state_directory() / "clean.lock"; }

CleanTurn CleanTurn::wait() {
    constexpr auto kPoll = std::chrono::milliseconds(20);
    const auto deadline = std::chrono::steady_clock::now() + kCleanLockWait;
    for (;;) {
        if (auto lock = FileLock::try_lock(clean_lock_path())) return CleanTurn(std::move(*lock));
        if (std::chrono::steady_clock::now() >= deadline)
            throw std::runtime_error("another lockcheck clean has held " + clean_lock_path().string() + " for " +
                                     std::to_string(kCleanLockWait.count()) + " s");
        std::this_thread::sleep_for(kPoll);
    }
}

CleanReport clean_dead_runs(const std::string& except_run_id) { return clean_dead_runs(CleanTurn::wait(), except_run_id); }

CleanReport clean_dead_runs(const CleanTurn& /*turn*/, const std::string& except_run_id) {
    CleanReport report;
    auto ids = run_ids_with_network();
    ids.merge(run_ids_with_cgroup());
    ids.merge(run_ids_with_docker());
    ids.merge(run_ids_in_state_directory());
    for (const auto& id : ids) {
        if (id == except_run_id) continue;
        auto lock = lock_if_dead(id);
        if (!lock) {
            report.alive_runs.push_back(id);
            continue;
        }
        report.dead_runs.push_back(id);
        // Its processes first, wherever they are (inside its namespaces or not), then its network.
        for (auto& name : remove_run_cgroup(id)) report.removed.push_back(std::move(name));
        for (auto& name : unmount_run_filesystems(id)) report.removed.push_back(std::move(name));
        for (auto& name : remove_run_docker(id)) report.removed.push_back(std::move(name));
        for (auto& name : remove_run_network(id)) report.removed.push_back(std::move(name));
        for (auto& name : remove_run_scratch(id)) report.removed.push_back(std::move(name));
        for (auto& name : remove_mariadb_installer_links(id)) report.removed.push_back(std::move(name));
        for (auto& name : remove_run_ssh(id)) report.removed.push_back(std::move(name));
        std::error_code ec;
        std::filesystem::remove(run_lock_path(id), ec);  // still locked by us: no live run can own it
    }
    return report;
}

}  // namespace lockcheck
