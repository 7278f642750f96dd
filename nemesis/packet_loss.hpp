// Fault "packet-loss": one node (the event's pick) drops each packet it sends
// or receives on its interface with probability packet_loss (spec field),
// through iptables' statistic match inside its namespace (this kernel has no
// netem). Clients and peers alike see loss, retransmits and timeouts.
// Unavailable without namespaces. Target: the node's name.
#pragma once

#include <mutex>
#include <vector>

#include "clusters/node.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class PacketLoss : public Fault {
public:
    PacketLoss(std::vector<Node*> nodes, bool namespaces, double probability)
        : nodes_(std::move(nodes)), namespaces_(namespaces), probability_(probability) {}
    std::string kind() const override { return "packet-loss"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    std::vector<Node*> nodes_;
    bool namespaces_;
    double probability_;
    std::mutex mutex_;
    Node* lossy_ = nullptr;
};

/// The descriptor of this fault (nemesis/packet_loss_descriptor.cpp).
FaultDescriptor packet_loss_fault();

}  // namespace lockcheck
