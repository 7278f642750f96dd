// Control groups that hold a tree of processes, so that all of them can be
// killed at once whatever they do: fork, setsid, ignore SIGTERM, double-fork
// away from their parent. A process joins a cgroup by writing its PID into the
// cgroup's cgroup.procs, and every process it starts afterwards is in it too.
//
// Two kinds of hierarchy serve: cgroup v2 with cgroup.kill (kernel >= 5.14),
// where one write kills the whole subtree; else the cgroup v1 freezer, where
// the subtree is frozen, each process is sent SIGKILL and the subtree thawed
// (a frozen process cannot fork meanwhile). lockcheck's cgroups live under
// <mount>/lockcheck in the first one found. Both need root (or a delegated
// hierarchy); without either there is no cgroup (see run_containment.hpp).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lockcheck {

enum class CgroupKind { Unified, Freezer };

struct CgroupHierarchy {
    std::filesystem::path dir;  ///< lockcheck's directory in the hierarchy, e.g. /sys/fs/cgroup/unified/lockcheck
    CgroupKind kind = CgroupKind::Unified;
};

/// Every hierarchy lockcheck could use on this machine, best first: the
/// cgroup v2 mount when its cgroups have cgroup.kill, then the v1 freezer.
/// Creates `<mount>/lockcheck` in each and checks that a process can be
/// moved into a cgroup there (a forked probe); a hierarchy where either
/// fails (no root, read-only, not delegated) is left out. Empty when none
/// can be used.
std::vector<CgroupHierarchy> usable_cgroup_hierarchies();

/// The first of usable_cgroup_hierarchies() (creating lockcheck's directory
/// in that one only), looked up once per process: where runs make cgroups.
std::optional<CgroupHierarchy> lockcheck_cgroups();

/// The hierarchies that have lockcheck's directory already: where `clean`
/// looks for the cgroups of dead runs. Creates nothing.
std::vector<CgroupHierarchy> existing_cgroup_hierarchies();

/// Kills every process in cgroup `dir` and in the cgroups below it, and waits
/// until none is left (at most `timeout`). True when the subtree is empty.
/// Never throws.
bool kill_cgroup_tree(const CgroupHierarchy& hierarchy, const std::filesystem::path& dir,
                      std::chrono::milliseconds timeout = std::chrono::seconds(5)) noexcept;

/// kill_cgroup_tree, then removes `dir` and the cgroups below it. True when
/// `dir` is gone. Never throws.
bool remove_cgroup_tree(const CgroupHierarchy& hierarchy, const std::filesystem::path& dir) noexcept;

/// Moves the calling process into the cgroup whose cgroup.procs is
/// `procs_file`; false (errno set) when it cannot. Async-signal-safe: for a
/// child between fork and exec.
bool join_cgroup(const char* procs_file) noexcept;

/// Moves process `pid` into the cgroup whose cgroup.procs is `procs_file`;
/// false (errno set) when it cannot. Async-signal-safe.
bool move_to_cgroup(const char* procs_file, pid_t pid) noexcept;

/// Moves the calling process into the cgroup whose directory is open as
/// `cgroup_dir` (an O_PATH fd will do); false (errno set) when it cannot.
/// Async-signal-safe: for a worker the fork server forked
/// (host/fork_server_process.hpp).
bool join_cgroup_at(int cgroup_dir) noexcept;

/// The PIDs in cgroup `dir` and in the cgroups below it. Empty when it is gone.
std::vector<int> cgroup_tree_pids(const std::filesystem::path& dir);

/// One cgroup, created (with its parent directories) on construction and
/// killed and removed on destruction. Thread-safe.
class ProcessCgroup {
public:
    /// Throws std::runtime_error naming the directory when it cannot be made.
    ProcessCgroup(CgroupHierarchy hierarchy, std::filesystem::path dir);
    ~ProcessCgroup();
    ProcessCgroup(const ProcessCgroup&) = delete;
    ProcessCgroup& operator=(const ProcessCgroup&) = delete;

    const std::filesystem::path& dir() const { return dir_; }
    const CgroupHierarchy& hierarchy() const { return hierarchy_; }
    /// Its cgroup.procs file. A child joins between fork and exec by writing
    /// its own PID there (join_cgroup, as spawn_child does).
    const std::string& procs_file() const { return procs_file_; }
    /// kill_cgroup_tree on this cgroup.
    bool kill_all() noexcept { return kill_cgroup_tree(hierarchy_, dir_); }

private:
    CgroupHierarchy hierarchy_;
    std::filesystem::path dir_;
    std::string procs_file_;
};

}  // namespace lockcheck
