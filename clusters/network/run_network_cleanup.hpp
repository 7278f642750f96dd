// Finding and removing the network a run left: its namespaces (the switch
// lc-<id> and the nodes' lc-<id>-nN), the processes inside them, and its
// links in the controller's namespace (the uplink lc-<id>; runs of older
// versions left a bridge lc-<id> and veths lc-<id>-N there).
// Everything is found by the run id in its name, never by a process name.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace lockcheck {

/// Run ids that own a network namespace or link on this machine.
std::set<std::string> run_ids_with_network();

/// Kills every process inside the run's namespaces (only the run's own can be
/// there), deletes the namespaces and links, and waits (up to 5 s) until the
/// kernel has removed the links. Never throws. Returns the names removed.
std::vector<std::string> remove_run_network(const std::string& run_id) noexcept;

}  // namespace lockcheck
