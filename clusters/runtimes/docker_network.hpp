// The Docker side of a run whose nodes are containers (runtime docker,
// clusters/runtimes/docker_runtime.hpp): its user-defined bridge network lc-<run id>
// with the run's leased subnet 10.77.S.0/24 (gateway .254, the controller's
// side), and finding and removing the containers and networks a run left.
// Everything is found by the label lockcheck.run=<run id>, never by a name.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace lockcheck {

/// Creates the run's bridge network "lc-<run_id>" on subnet 10.77.`slot`.0/24,
/// labelled lockcheck.run=<run_id>. Throws DockerError (one line: no daemon,
/// or the daemon's refusal).
void create_run_docker_network(const std::string& run_id, int slot);

/// The name of the run's network, which its containers join.
std::string run_docker_network(const std::string& run_id);

/// Run ids that own a container or network on the Docker daemon
/// (docker_socket_path()); empty when no daemon answers.
std::set<std::string> run_ids_with_docker();

/// Removes (killing first) every container labelled with the run, then its
/// networks. Never throws; returns what was removed, e.g. "container
/// lc-1a2b3c-n1" (nothing when no daemon answers).
std::vector<std::string> remove_run_docker(const std::string& run_id) noexcept;

}  // namespace lockcheck
