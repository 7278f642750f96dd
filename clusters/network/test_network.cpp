#include "clusters/network/test_network.hpp"

#include <unistd.h>

#include <stdexcept>

#include "host/system_command.hpp"
#include "clusters/runtimes/docker_network.hpp"
#include "clusters/network/run_network_cleanup.hpp"

namespace lockcheck {
namespace {

/// The bridge inside the switch namespace.
constexpr const char* kSwitchBridge = "br0";

}  // namespace

NetworkMode network_mode_from_string(const std::string& text) {
    if (text == "auto") return NetworkMode::Auto;
    if (text == "netns") return NetworkMode::Namespaces;
    if (text == "loopback") return NetworkMode::Loopback;
    throw std::invalid_argument("network must be auto, netns or loopback, not '" + text + "'");
}

std::string to_string(NetworkMode mode) {
    switch (mode) {
        case NetworkMode::Auto: return "auto";
        case NetworkMode::Namespaces: return "netns";
        case NetworkMode::Loopback: return "loopback";
        case NetworkMode::Docker: return "docker";
        case NetworkMode::Hosts: return "hosts";
    }
    return "auto";
}

bool can_use_namespaces() {
    if (::geteuid() != 0) return false;
    try {
        return run_command({"ip", "netns", "list"}).exit_code == 0;
    } catch (const CommandError&) {
        return false;
    }
}

std::string run_prefix(const std::string& run_id) { return "lc-" + run_id; }

TestNetwork::TestNetwork(const std::string& run_id, int node_count, NetworkMode mode,
                         const std::vector<std::string>& host_addresses)
    : run_id_(run_id), prefix_(run_prefix(run_id)), lease_(std::make_unique<SubnetLease>(run_id)) {
    if (mode == NetworkMode::Hosts) {
        if (static_cast<int>(host_addresses.size()) < node_count)
            throw std::runtime_error("the hosts file lists " + std::to_string(host_addresses.size()) + " host(s) for " +
                                     std::to_string(node_count) + " nodes");
        hosts_ = true;
        addresses_.assign(host_addresses.begin(), host_addresses.begin() + node_count);
        return;
    }
    if (mode == NetworkMode::Namespaces && !can_use_namespaces())
        throw std::runtime_error("network 'netns' needs root and iproute2; run as root or use --network loopback");
    docker_ = mode == NetworkMode::Docker;
    namespaces_ = mode == NetworkMode::Namespaces || (mode == NetworkMode::Auto && can_use_namespaces());
    const std::string slot = std::to_string(lease_->slot());
    for (int i = 0; i < node_count; ++i)
        addresses_.push_back((namespaces_ || docker_ ? "10.77." : "127.77.") + slot + "." + std::to_string(i + 1));
    if (!namespaces_ && !docker_) return;
    try {
        if (docker_)
            create_run_docker_network(run_id_, lease_->slot());
        else
            create_namespaces(node_count);
    } catch (...) {
        teardown();
        throw;
    }
}

TestNetwork::~TestNetwork() { teardown(); }

std::optional<std::string> TestNetwork::netns(int node) const {
    if (!namespaces_) return std::nullopt;
    return namespace_names_.at(node);
}

void TestNetwork::create_namespaces(int node_count) {
    const std::string slot = std::to_string(lease_->slot());
    // The switch: a namespace of its own holding the bridge, so bridged traffic
    // between nodes meets only that namespace's empty firewall, never the
    // host's FORWARD chain (DROP on Docker hosts, with bridge-nf-call-iptables=1).
    switch_netns_ = prefix_;
    run_checked({"ip", "netns", "add", switch_netns_});
    run_checked({"ip", "-n", switch_netns_, "link", "add", kSwitchBridge, "type", "bridge"});
    run_checked({"ip", "-n", switch_netns_, "link", "set", kSwitchBridge, "up"});
    // The controller's uplink: lc-<id> here (10.77.S.254), its peer a port of the bridge.
    uplink_ = prefix_;
    join_switch(uplink_, {}, "uplink");
    run_checked({"ip", "addr", "add", "10.77." + slot + ".254/24", "dev", uplink_});
    run_checked({"ip", "link", "set", uplink_, "up"});
    for (int i = 0; i < node_count; ++i) {
        const std::string ns = prefix_ + "-n" + std::to_string(i + 1);
        run_checked({"ip", "netns", "add", ns});
        namespace_names_.push_back(ns);
        join_switch("eth0", ns, "port" + std::to_string(i + 1));
        run_checked({"ip", "-n", ns, "addr", "add", addresses_[i] + "/24", "dev", "eth0"});
        run_checked({"ip", "-n", ns, "link", "set", "eth0", "up"});
        run_checked({"ip", "-n", ns, "link", "set", "lo", "up"});
    }
}

void TestNetwork::join_switch(const std::string& link, const std::optional<std::string>& netns,
                              const std::string& port) {
    std::vector<std::string> add{"ip", "link", "add", link};
    if (netns) add.insert(add.end(), {"netns", *netns});
    add.insert(add.end(), {"type", "veth", "peer", "name", port, "netns", switch_netns_});
    run_checked(add);
    run_checked({"ip", "-n", switch_netns_, "link", "set", port, "master", kSwitchBridge, "up"});
}

void TestNetwork::teardown() noexcept {
    if (torn_down_) return;
    torn_down_ = true;
    if (namespaces_) remove_run_network(run_id_);
    if (docker_) remove_run_docker(run_id_);
}

}  // namespace lockcheck
