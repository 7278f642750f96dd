// What runs that died left behind, and removing it (every run does so when it
// starts; `lockcheck clean`, commands/clean_command.hpp, on demand) - every
// process in their cgroups (host/run_containment.hpp: servers, workers,
// whatever those started, e.g. a client's setsid child or a bootstrap
// mariadbd) and the cgroups, their lose-unsynced filesystems (unmounted,
// found by the run id in their fsname), the processes inside their namespaces (found
// through `ip netns pids`, never by name), their namespaces and links (with
// every firewall rule, which lives inside the namespaces), their scratch
// directories (run/run_scratch.hpp), the MariaDB installer's links in /tmp
// (clusters/servers/mariadb_node.hpp) and their lock files. It never touches
// a run that is still alive (see run_liveness.hpp). Without cgroups (no root),
// servers and workers die with their controller through PR_SET_PDEATHSIG.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "host/file_lock.hpp"

namespace lockcheck {

struct CleanReport {
    std::vector<std::string> dead_runs;   ///< run ids cleaned
    std::vector<std::string> removed;     ///< names of what was removed
    std::vector<std::string> alive_runs;  ///< run ids left alone
};

/// How long a clean waits for another one to finish before it gives up.
inline constexpr std::chrono::seconds kCleanLockWait{120};

/// The lock one clean holds over the whole state directory
/// (STATE_DIR/clean.lock). A clean holds each dead run's own lock while it
/// cleans that run, so a second clean at the same moment would count that run
/// as alive and leave it; with this lock, cleans (`lockcheck clean`, and the
/// one every run starts with) take turns instead.
std::filesystem::path clean_lock_path();

/// This process's turn to clean: the clean lock, held while the object lives.
/// Whoever holds it also keeps every other clean away from the runs it looks
/// at, e.g. a test that plants a dead run and then cleans it itself.
class CleanTurn {
public:
    /// Waits for any other clean to finish (at most kCleanLockWait; then
    /// throws std::runtime_error naming the lock file).
    static CleanTurn wait();

private:
    explicit CleanTurn(FileLock lock) : lock_(std::move(lock)) {}
    FileLock lock_;
};

/// Cleans every dead run except `except_run_id` (the caller's own) during
/// `turn`.
CleanReport clean_dead_runs(const CleanTurn& turn, const std::string& except_run_id = "");

/// The same, after waiting for a turn (CleanTurn::wait).
CleanReport clean_dead_runs(const std::string& except_run_id = "");

}  // namespace lockcheck
