// A database topology: the set of nodes of one run and how clients reach them.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/durability_settings.hpp"
#include "clusters/topologies/failover_control.hpp"
#include "clusters/node.hpp"
#include "clusters/node_data_mount.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"
#include "clusters/servers/server_credentials.hpp"
#include "clusters/network/test_network.hpp"

namespace lockcheck {

class PeerLinks;

struct TopologyOptions {
    std::string name;  ///< e.g. "redis-single"
    /// Where every node's server runs (clusters/runtimes/node_runtime_registry.hpp).
    std::string runtime = kDefaultNodeRuntime;
    /// Runtime docker: the nodes' image (empty: lockcheck's own).
    std::string image;
    /// Runtime ssh: the hosts file's hosts; node i (network host i) runs on hosts[i].
    std::vector<RemoteHost> hosts;
    std::string persistence = "none";  ///< Redis: none | everysec | always
    std::filesystem::path dir;         ///< the run's nodes/ directory
    /// Where nodes keep bulky data that is no evidence (etcd's data dirs):
    /// removed at the end of the run, and by `clean` after the run died
    /// (run/run_scratch.hpp). Empty: the node's own directory.
    std::filesystem::path scratch_dir;
    int node_count = 0;  ///< redis-independent: nodes (0: the topology's default)
    /// When set, server nodes run with this LD_PRELOAD clock library and a
    /// per-node offset file (clusters/clock_offset.hpp), behind the clock
    /// launcher installed beside it (which reaches statically linked servers
    /// too), so clock-skew can move their clocks.
    std::optional<std::filesystem::path> clock_library;
    /// The run's passwords (clusters/servers/server_credentials.hpp): Redis servers
    /// and sentinels ask for the client password, MariaDB has a client and a
    /// replication account; ZooKeeper and etcd have no login.
    ServerCredentials credentials;
    /// A stop requested on it (Ctrl-C) ends every wait of start(): the
    /// topology then throws NodeStartError saying it was interrupted.
    std::stop_token interrupt;
    /// The switch for power loss: when set, every node that holds data (Redis
    /// servers, not Sentinels; ZooKeeper's dataDir; etcd's data dir;
    /// MariaDB's datadir) keeps it on the lose-unsynced filesystem, mounted
    /// before its server starts and unmounted after it stops, named after
    /// run_id (clusters/node_data_mount.hpp, clusters/power_loss.hpp). Unset
    /// (a run without power loss): nothing is mounted.
    std::optional<UnsyncedDataOptions> unsynced_data;
    /// What the servers sync before they acknowledge (Redis's: persistence).
    DurabilitySettings durability;
    /// When set (a partition or failover in loopback mode), the servers reach
    /// their peers through faces on these links (clusters/network/peer_links.hpp),
    /// on the topologies whose descriptor says peer_links_cut_peers; the
    /// others ignore it. Null: peers connect to each other directly.
    PeerLinks* peer_links = nullptr;
};

class Topology {
public:
    virtual ~Topology() = default;
    /// Starts every node and waits until the topology is ready for clients.
    virtual void start() = 0;
    /// Stops every node (SIGTERM, then SIGKILL). Idempotent.
    virtual void stop() = 0;
    virtual std::vector<Node*> nodes() = 0;
    /// Addresses clients connect to ("ip:port"), in node order.
    virtual std::vector<std::string> client_endpoints() const = 0;
    /// The node clients currently write to, for topologies with a primary
    /// (asks the cluster); nullptr otherwise or when it is unknown.
    virtual Node* primary() { return nullptr; }
    /// The nodes a fault should strike to hurt the current lock holder, when
    /// the topology knows them without reading lock keys: a replicated
    /// ensemble keeps every lock on all members, so its leader; a database
    /// keeps every lock on its primary (empty when no primary answers).
    /// nullopt: find them from the keys on the servers (Redis, nemesis/lock_location.hpp).
    virtual std::optional<std::vector<Node*>> lock_nodes() { return std::nullopt; }
    /// How the topology changes its primary, for the failover fault; empty
    /// for topologies without replicas.
    virtual FailoverControl failover_control() { return {}; }
};

/// Node `name` of a topology on network host `host`, run by runtime
/// options.runtime (on options.hosts[host] for runtime ssh; a runtime that
/// cannot be made throws NodeStartError naming the node): its directory is
/// options.dir/name (created mode 0700: its configs hold the run's password), it runs with the clock library when the run has one
/// (clock_environment), and options.interrupt ends its readiness wait. `program` writes the server's config into that
/// directory and says how to run it at the host's address. With options.unsynced_data, the program's data_dir is
/// on the lose-unsynced filesystem (make_node_data_mount).
std::unique_ptr<Node> make_topology_node(
    const TopologyOptions& options, const TestNetwork& network, int host, const std::string& name,
    const std::function<NodeProgram(const std::filesystem::path& dir, const std::string& address)>& program);

/// Waits until `settled` holds, asking every 50 ms. Throws NodeStartError
/// "topology `topology` " + `why_not`() after `timeout`, or one saying it was
/// interrupted when a stop is requested on `interrupt`.
void await_settled(const std::string& topology, const std::stop_token& interrupt, std::chrono::seconds timeout,
                   const std::function<bool()>& settled, const std::function<std::string()>& why_not);

/// The lock nodes of a replicated store that keeps every lock on all its
/// members: the primary (leader) when one is known, else every node.
std::vector<Node*> primary_or_all(Topology& topology);

/// How many nodes (network hosts) topology options.name needs
/// (clusters/topologies/topology_registry.hpp). Throws std::invalid_argument for an
/// unknown name.
int topology_node_count(const TopologyOptions& options);
/// Builds topology options.name on `network` (nodes not started). Throws
/// std::invalid_argument for an unknown name or option.
std::unique_ptr<Topology> make_topology(const TopologyOptions& options, const TestNetwork& network);

}  // namespace lockcheck
