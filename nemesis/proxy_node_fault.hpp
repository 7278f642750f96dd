// The proxy faults that strike one node: every worker's connections to it
// through the run's fault proxy (nemesis/proxied_network.hpp) get one
// netproxy::LinkFault until the heal. Faults "delay", "blackhole", "reset"
// and "bandwidth" are this class with their own fault value (their
// descriptors: nemesis/network_delay_descriptor.cpp, blackhole_descriptor.cpp,
// connection_reset_descriptor.cpp, bandwidth_descriptor.cpp). The node is the event's pick among the
// topology's client endpoints, or every one of them (delay_nodes "every": a
// slow network, wherever the clients connect); each target reported is
// "proxy to IP:PORT".
#pragma once

#include <string>

#include "core/option_descriptor.hpp"
#include "core/spec_view.hpp"
#include "core/ttl_time.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/proxy_link_fault.hpp"
#include "netproxy/fault.hpp"

namespace lockcheck {

class ProxyNodeFault : public ProxyLinkFault {
public:
    /// `every_node`: strike every node's links, not only the event's pick.
    ProxyNodeFault(std::string kind, ProxiedNetwork* proxy, netproxy::LinkFault fault, bool every_node = false)
        : ProxyLinkFault(std::move(kind), proxy, fault), every_node_(every_node) {}
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;

private:
    bool every_node_;
    void set_links(int node, const netproxy::LinkFault& fault) override { proxy_->set_node_fault(node, fault); }
};

/// What every proxy fault refuses: topologies whose clients do not connect
/// to the endpoints they are given (redis-sentinel: they ask Sentinel for the
/// primary's address, which the proxy does not rewrite).
SpecVerdict refuse_unproxied_topology(const std::string& fault, const SpecView& spec);

/// A latency option of a proxy fault: ms, or "Nxttl", from 0 to 12 hours:
/// every default ("1.5xttl" at most) fits the longest TTL (1 hour), and two
/// proxy faults on one link add up to at most the 24 h netproxy::validate accepts.
OptionDescriptor proxy_latency_option(std::string name, std::string description, TtlTime default_value);

/// The descriptors of the faults that are this class: "delay"
/// (nemesis/network_delay_descriptor.cpp), "blackhole"
/// (blackhole_descriptor.cpp), "reset" (connection_reset_descriptor.cpp)
/// and "bandwidth" (bandwidth_descriptor.cpp).
FaultDescriptor delay_fault();
FaultDescriptor blackhole_fault();
FaultDescriptor reset_fault();
FaultDescriptor bandwidth_fault();

}  // namespace lockcheck
