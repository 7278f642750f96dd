// The test network of one run (docs/servers.md, "Test network").
//
// Namespace mode (root): a switch namespace lc-<id> holding a Linux bridge,
// one network namespace lc-<id>-nN per node joined to the bridge by a veth
// pair (eth0 in the node), and the controller's uplink: a veth lc-<id> in the
// controller's namespace holding the address .254, its peer on the bridge.
// Each node has its own address 10.77.S.N and nothing else (no default
// route). Traffic between nodes is bridged inside the switch namespace, whose
// firewall is empty, so it flows whatever the host's FORWARD chain says (a
// Docker host drops forwarded packets, and with bridge-nf-call-iptables=1
// bridged ones too); traffic between the controller and a node is the host's
// own (OUTPUT/INPUT). Faults that need a node's own firewall (partitions,
// packet loss) are possible only here.
// Loopback mode (no root): every node binds its own address 127.77.S.N.
// Docker mode (runtime docker, clusters/runtimes/docker_network.hpp): a Docker bridge
// network lc-<id> on 10.77.S.0/24 (the host is .254); each node is a
// container with the address 10.77.S.N in its own network namespace, which
// the runtime enters (NodeRuntime::run_in_network) for partitions.
// Hosts mode (runtime ssh, clusters/runtimes/ssh_runtime.hpp): node i is host i of the
// hosts file, at that host's address; nothing is created here, and each
// node's firewall is its host's (NodeRuntime::run_in_network over ssh).
// Every name carries the run id; the subnet slot S is leased per run.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clusters/network/subnet_lease.hpp"

namespace lockcheck {

/// Docker and Hosts are never asked for by --network: runtimes docker and
/// ssh bring them (NodeRuntimeDescriptor::network).
enum class NetworkMode { Auto, Namespaces, Loopback, Docker, Hosts };

/// "auto" | "netns" | "loopback"; throws std::invalid_argument otherwise.
NetworkMode network_mode_from_string(const std::string& text);
std::string to_string(NetworkMode mode);

/// True when this process may create network namespaces (root and `ip` present).
bool can_use_namespaces();

/// Name prefix of everything a run creates: "lc-<run_id>".
std::string run_prefix(const std::string& run_id);

class TestNetwork {
public:
    /// Creates the network for `node_count` nodes. Auto picks namespaces when
    /// possible. Hosts mode: node i is at host_addresses[i] (there must be
    /// `node_count` of them). Throws std::runtime_error with the failing
    /// command's message; whatever was created before the failure is removed.
    TestNetwork(const std::string& run_id, int node_count, NetworkMode mode,
                const std::vector<std::string>& host_addresses = {});
    /// Tears everything down (see teardown()).
    ~TestNetwork();
    TestNetwork(const TestNetwork&) = delete;
    TestNetwork& operator=(const TestNetwork&) = delete;

    /// True when every node has a network namespace of its own (namespace,
    /// Docker or hosts mode).
    bool uses_namespaces() const { return namespaces_ || docker_ || hosts_; }
    bool uses_docker() const { return docker_; }
    bool uses_hosts() const { return hosts_; }
    const std::string& run_id() const { return run_id_; }
    int node_count() const { return static_cast<int>(addresses_.size()); }
    /// Address of node i (0-based).
    const std::string& address(int node) const { return addresses_.at(node); }
    /// Network namespace of node i, when in namespace mode (in Docker mode
    /// the container's runtime owns it: nullopt).
    std::optional<std::string> netns(int node) const;
    /// The controller's link to the switch (namespace mode): "lc-<id>".
    const std::string& uplink() const { return uplink_; }

    /// Removes the run's network (remove_run_network). Idempotent; never throws.
    void teardown() noexcept;

private:
    std::string run_id_;
    std::string prefix_;
    std::unique_ptr<SubnetLease> lease_;
    bool namespaces_ = false;
    bool docker_ = false;
    bool hosts_ = false;
    std::string switch_netns_;
    std::string uplink_;
    std::vector<std::string> addresses_;
    std::vector<std::string> namespace_names_;
    bool torn_down_ = false;

    void create_namespaces(int node_count);
    /// Creates a veth pair: `link` (in `netns`, or the controller's namespace)
    /// and `port` on the switch's bridge.
    void join_switch(const std::string& link, const std::optional<std::string>& netns, const std::string& port);
};

}  // namespace lockcheck
