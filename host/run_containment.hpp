// Containment of every process one run starts, and of everything those start:
// a worker that forks a child which calls setsid and ignores SIGTERM, or the
// bootstrap mariadbd that mariadb-install-db starts, must not outlive the run.
//
// With cgroups (root; host/process_cgroup.hpp) the run owns the cgroup
// lockcheck/lc-<run id>, and each child (server, worker, short command) gets a
// cgroup of its own inside it, c<N>: killing a child kills its whole subtree
// (ChildProcess::kill), the end of the run kills whatever is left, and
// `lockcheck clean` kills and removes the cgroup of a run that died.
// Without cgroups the controller is a child subreaper: descendants whose
// parent died are reparented to it, and it kills them at the end of the run;
// after kill -9 nothing can find those.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "host/process_cgroup.hpp"

namespace lockcheck {

class RunContainment {
public:
    /// Makes this process a child subreaper and, when cgroups can be used,
    /// creates the run's cgroup. One run at a time per process: throws
    /// std::logic_error while another RunContainment lives, and
    /// std::runtime_error when the run's cgroup cannot be made.
    explicit RunContainment(const std::string& run_id);
    /// Kills every process left in the run's cgroup and removes it, then kills
    /// and reaps every child this process still has (kill_and_reap_children).
    ~RunContainment();
    RunContainment(const RunContainment&) = delete;
    RunContainment& operator=(const RunContainment&) = delete;

    /// The run's cgroup, or nullopt when it runs without cgroups.
    const std::optional<std::filesystem::path>& cgroup() const { return cgroup_; }

private:
    std::optional<std::filesystem::path> cgroup_;
    int previous_subreaper_ = 0;
};

/// A fresh cgroup inside the current run's for one child, or nullptr when no
/// RunContainment lives or it has no cgroup. Throws std::runtime_error when
/// the cgroup cannot be made.
std::unique_ptr<ProcessCgroup> new_child_cgroup();

/// Run ids that have a cgroup on this machine (lockcheck/lc-<id>).
std::set<std::string> run_ids_with_cgroup();

/// Kills every process in the run's cgroups and removes them. Never throws.
/// Returns what was removed, e.g. "cgroup /sys/fs/cgroup/unified/lockcheck/lc-1a2b3c (2 processes killed)".
std::vector<std::string> remove_run_cgroup(const std::string& run_id) noexcept;

/// SIGKILLs and reaps every child of this process, again and again while
/// new ones appear (descendants reparented to a subreaper), for at most
/// `timeout`. Returns how many it reaped. Never throws.
int kill_and_reap_children(std::chrono::milliseconds timeout = std::chrono::seconds(5)) noexcept;

}  // namespace lockcheck
