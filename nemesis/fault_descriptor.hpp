// Everything lockcheck knows about one fault, in one value: its name, what it
// does, its options (top-level spec fields such as restart_delay_ms) with
// their defaults and bounds, its factory, and which specs it cannot run and
// why. Each fault defines its descriptor in its own file
// (nemesis/NAME_descriptor.cpp) and is listed once in
// nemesis/fault_registry.cpp; the spec reads, checks and writes its options
// through the descriptor, so nothing else names them.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "clusters/topologies/topology.hpp"
#include "core/option_descriptor.hpp"
#include "core/spec_view.hpp"
#include "nemesis/fault.hpp"

namespace lockcheck {

class PeerLinks;
class ProxiedNetwork;

/// What faults may act on in one run.
struct FaultTargets {
    WorkerControl& workers;
    Topology& topology;
    bool namespaces = false;           ///< nodes have their own network namespaces
    std::string server_password = "";  ///< the servers' client password (Redis asks for it)
    std::stop_token interrupt = {};    ///< the run's interrupt (Ctrl-C): ends waits that outlast the run's stop
    /// The run's fault proxy in front of the nodes' client ports
    /// (nemesis/proxied_network.hpp); null unless a fault needs_proxy.
    ProxiedNetwork* proxy = nullptr;
    /// The servers' peer links (clusters/network/peer_links.hpp): set in loopback
    /// mode when a fault cuts_peers and the topology routes its peers
    /// through them; null otherwise.
    PeerLinks* peer_links = nullptr;
    /// RUN_DIR/workers when the workers run with the clock library (a fault
    /// needs_worker_clock_library): each worker's offset file is under
    /// worker_clock_dir(workers_dir, process); empty otherwise.
    std::filesystem::path worker_clock_workers_dir = {};
};

struct FaultDescriptor {
    std::string name;         ///< an entry of spec field nemesis, e.g. "kill-restart"
    std::string description;  ///< one line, for `lockcheck list`
    /// Its options: top-level spec fields, named so no other fault or spec
    /// field uses the name (e.g. restart_delay_ms).
    std::vector<OptionDescriptor> options = {};
    /// The option (one of `options`, an integer >= 1 defaulting to 1) that
    /// makes one event strike that many targets at once, when the fault has
    /// one (kill-restart: kill_restart_nodes). `lockcheck shrink` then tries
    /// several events of the fault as one event whose count is theirs added
    /// up (commands/shrink/shrink_merge.hpp). Empty: none.
    std::string count_option = "";
    /// Whether the nodes must run with the LD_PRELOAD clock library
    /// (clusters/clock_offset.hpp) for it to act; the run then starts them so.
    bool needs_clock_library = false;
    /// Whether the workers must run with the clock library, each with an
    /// offset file of its own (worker_clock_dir, nemesis/client_clock_skew.hpp),
    /// for it to act; the run then execs every worker so (no fork server:
    /// a forked worker would share the server's offset file).
    bool needs_worker_clock_library = false;
    /// Whether the nodes must keep their data on the lose-unsynced filesystem
    /// (TopologyOptions::unsynced_data) for it to act; the run then mounts
    /// it, and refuses to start on a host that cannot (power-loss).
    bool needs_unsynced_data = false;
    /// Whether it acts only inside the nodes' network namespaces (firewall
    /// rules, traffic control): a run without them refuses it before it
    /// makes anything (run/run_preflight.hpp).
    bool needs_namespaces = false;
    /// Whether it acts through the fault proxy (nemesis/proxied_network.hpp):
    /// the run then puts the proxy in front of every node's client port and
    /// gives the workers the proxy's addresses. Without such a fault, workers
    /// connect to the servers directly and no proxy exists.
    bool needs_proxy = false;
    /// Whether it cuts servers off from each other (partition, failover):
    /// with namespaces by firewall rules; without, through the peer links of
    /// the fault proxy (clusters/network/peer_links.hpp), which the run then builds
    /// the topology with. A topology whose peers do not go through them
    /// (TopologyDescriptor::peer_links_cut_peers) is refused in loopback mode
    /// before the run makes anything (run/run_preflight.hpp).
    bool cuts_peers = false;
    /// The fault for one run, acting on `targets`, with `options` resolved
    /// (core/option_descriptor.hpp: every option present, "Nxttl" in ms).
    std::function<std::unique_ptr<Fault>(const FaultTargets& targets, const nlohmann::json& options)> make;
    /// Why it cannot run `spec`, or nullopt. Empty: it runs every spec (it
    /// may still be unavailable in a run: Fault::unavailable_reason).
    std::function<SpecVerdict(const SpecView& spec)> refuses = {};
};

}  // namespace lockcheck
