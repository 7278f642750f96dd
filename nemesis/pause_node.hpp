// Fault "pause-node": SIGSTOP a server node (the event's `pick` chooses which),
// SIGCONT it when the fault ends. Clients see timeouts; the node's clock runs
// on, so leases on it expire while it is stopped. With option
// pause_node_target "while-held" it first waits (up to 5 s) for some worker
// to hold a lock, so the stall catches a holder whose lease then runs out;
// "primary-while-held" does the same and stops the topology's primary (the
// node clients write to; the event's pick when it has none).
#pragma once

#include <mutex>
#include <vector>

#include "clusters/node.hpp"
#include "clusters/topologies/topology.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class PauseNode : public Fault {
public:
    /// When it stops a node, and which.
    struct Aim {
        /// Wait (up to kWaitForWorkerTarget) for one of the workers' holders
        /// before the stop; give up (no fault) when none holds by then.
        bool while_held = false;
        Topology* primary_of = nullptr;  ///< stop this topology's primary when it has one
    };
    PauseNode(std::vector<Node*> nodes, WorkerControl& workers, Aim aim)
        : nodes_(std::move(nodes)), workers_(workers), aim_(aim) {}
    std::string kind() const override { return "pause-node"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    std::vector<Node*> nodes_;
    WorkerControl& workers_;
    Aim aim_;
    std::mutex mutex_;
    Node* paused_ = nullptr;
};

/// The descriptor of this fault (nemesis/pause_node_descriptor.cpp).
FaultDescriptor pause_node_fault();

}  // namespace lockcheck
