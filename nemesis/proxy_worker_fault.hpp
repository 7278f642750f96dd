// The proxy faults that strike one worker: every link of the worker that
// holds the lock (its connections to every node through the run's fault
// proxy, nemesis/proxied_network.hpp) gets one netproxy::LinkFault until the
// heal, while the worker keeps running. Faults "slow-reply"
// (nemesis/slow_reply.hpp) and "client-partition" (its descriptor:
// nemesis/client_partition_descriptor.cpp) are this class with their own
// fault value.
//
// At the event's time it waits (up to 5 s) for a holder; among several, the
// event's pick chooses. With `idle_target` it waits instead for a worker that
// neither holds a lock nor has an acquire in flight, so that the worker's next
// acquire is sent inside the fault. Target: "worker N".
#pragma once

#include <string>

#include "nemesis/fault_descriptor.hpp"
#include "nemesis/proxy_link_fault.hpp"

namespace lockcheck {

class ProxyWorkerFault : public ProxyLinkFault {
public:
    /// `proxy` may be null (a run without the proxy): the fault is then unavailable.
    ProxyWorkerFault(std::string kind, WorkerControl& workers, ProxiedNetwork* proxy, netproxy::LinkFault fault,
                     bool idle_target = false)
        : ProxyLinkFault(std::move(kind), proxy, fault), workers_(workers), idle_target_(idle_target) {}
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;

private:
    void set_links(int process, const netproxy::LinkFault& fault) override { proxy_->set_worker_fault(process, fault); }

    /// The workers it may strike now: the holders, or the idle ones.
    std::vector<int> candidates() const;

    WorkerControl& workers_;
    bool idle_target_ = false;
};

/// The descriptor of fault "client-partition" (nemesis/client_partition_descriptor.cpp):
/// every link of the holder blackholed or reset (option client_partition_mode).
FaultDescriptor client_partition_fault();

}  // namespace lockcheck
