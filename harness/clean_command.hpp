// `lockcheck clean`: removes whatever runs that died left behind - their
// lose-unsynced filesystems (unmounted, found by the run id in their fsname),
// the processes inside their namespaces (found through `ip netns pids`, never
// by name), their namespaces, bridges and veths (with every firewall rule, which
// lives inside the namespaces), and their lock files and scratch directories
// under the state directory. It never touches a run that is still alive (see
// run_liveness.hpp). Servers and workers outside namespaces (loopback mode)
// die with their controller through PR_SET_PDEATHSIG.
#pragma once

#include <string>
#include <vector>

namespace lockcheck {

struct CleanReport {
    std::vector<std::string> dead_runs;   ///< run ids cleaned
    std::vector<std::string> removed;     ///< names of what was removed
    std::vector<std::string> alive_runs;  ///< run ids left alone
};

/// Cleans every dead run except `except_run_id` (the caller's own).
CleanReport clean_dead_runs(const std::string& except_run_id = "");

/// Prints what was cleaned and returns exit code 0.
int clean_command();

}  // namespace lockcheck
