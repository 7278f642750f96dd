// Fault "pause-node": SIGSTOP a server node (the event's `pick` chooses which),
// SIGCONT it when the fault ends. Clients see timeouts; the node's clock runs
// on, so leases on it expire while it is stopped. With option
// pause_node_target "while-held" it first waits (up to 5 s) for some worker
// to hold a lock, so the stall catches a holder whose lease then runs out.
#pragma once

#include <mutex>
#include <vector>

#include "clusters/node.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

class PauseNode : public Fault {
public:
    /// `while_held`: wait (up to kWaitForWorkerTarget) for one of `workers`'
    /// holders before the stop; give up (no fault) when none holds by then.
    PauseNode(std::vector<Node*> nodes, WorkerControl& workers, bool while_held)
        : nodes_(std::move(nodes)), workers_(workers), while_held_(while_held) {}
    std::string kind() const override { return "pause-node"; }
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    std::vector<Node*> nodes_;
    WorkerControl& workers_;
    bool while_held_ = false;
    std::mutex mutex_;
    Node* paused_ = nullptr;
};

/// The descriptor of this fault (nemesis/pause_node_descriptor.cpp).
FaultDescriptor pause_node_fault();

}  // namespace lockcheck
