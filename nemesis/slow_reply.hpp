// Fault "slow-reply": the lock holder's replies arrive late. Every link of
// the worker that holds the lock (its connections to every node through the
// run's fault proxy, nemesis/proxied_network.hpp) delays the server→client
// bytes by slow_reply_ms; requests still reach the servers at once and take
// effect there. The holder's release answer, and the grant of its next
// acquire while the fault lasts, arrive slow_reply_ms late: with
// slow_reply_ms above the lease, a grant arrives after the lease it grants
// has run out (unless the client's server timeout is shorter: then the call
// times out). Bytes read before the heal keep their delay.
//
// The target is chosen as every proxy fault on one worker chooses it
// (nemesis/proxy_worker_fault.hpp): a holder, by the event's pick; with
// option slow_reply_target "idle", a worker neither holding nor acquiring,
// so that its next acquire is sent inside the fault. Target: "worker N".
#pragma once

#include <chrono>

#include "nemesis/proxy_worker_fault.hpp"

namespace lockcheck {

class SlowReply : public ProxyWorkerFault {
public:
    /// `proxy` may be null (a run without the proxy): the fault is then unavailable.
    SlowReply(WorkerControl& workers, ProxiedNetwork* proxy, std::chrono::milliseconds latency,
              bool idle_target = false)
        : ProxyWorkerFault("slow-reply", workers, proxy, netproxy::faults::slow_reply(latency), idle_target),
          latency_(latency) {}
    std::optional<std::int64_t> reply_delay_ms() const override { return latency_.count(); }

private:
    std::chrono::milliseconds latency_;
};

/// The descriptor of this fault (nemesis/slow_reply_descriptor.cpp).
FaultDescriptor slow_reply_fault();

}  // namespace lockcheck
