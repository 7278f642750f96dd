// Fault "pause-node": SIGSTOP a server node (the event's `pick` chooses which),
// SIGCONT it when the fault ends. Clients see timeouts; the node's clock runs
// on, so leases on it expire while it is stopped.
#pragma once

#include <mutex>
#include <vector>

#include "clusters/node.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class PauseNode : public Fault {
public:
    explicit PauseNode(std::vector<Node*> nodes) : nodes_(std::move(nodes)) {}
    std::string kind() const override { return "pause-node"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    std::vector<Node*> nodes_;
    std::mutex mutex_;
    Node* paused_ = nullptr;
};

/// The descriptor of this fault (nemesis/pause_node_descriptor.cpp).
FaultDescriptor pause_node_fault();

}  // namespace lockcheck
