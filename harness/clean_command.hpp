// `lockcheck clean`: removes whatever runs that died left behind - every
// process in their cgroups (clusters/run_containment.hpp: servers, workers,
// whatever those started, e.g. a client's setsid child or a bootstrap
// mariadbd) and the cgroups, their lose-unsynced filesystems (unmounted,
// found by the run id in their fsname), the processes inside their namespaces (found
// through `ip netns pids`, never by name), their namespaces and links (with
// every firewall rule, which lives inside the namespaces), their scratch
// directories (harness/run_scratch.hpp) and their lock files. It never touches
// a run that is still alive (see run_liveness.hpp). Without cgroups (no root),
// servers and workers die with their controller through PR_SET_PDEATHSIG.
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
