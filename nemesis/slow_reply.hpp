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
// At the event's time it waits (up to 5 s) for a holder; among several, the
// event's pick chooses. Target: "worker N".
#pragma once

#include <chrono>
#include <mutex>
#include <optional>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/proxied_network.hpp"

namespace lockcheck {

class SlowReply : public Fault {
public:
    /// `proxy` may be null (a run without the proxy): the fault is then unavailable.
    SlowReply(WorkerControl& workers, ProxiedNetwork* proxy, std::chrono::milliseconds latency)
        : workers_(workers), proxy_(proxy), latency_(latency) {}
    std::string kind() const override { return "slow-reply"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;
    std::optional<std::int64_t> reply_delay_ms() const override { return latency_.count(); }

private:
    WorkerControl& workers_;
    ProxiedNetwork* proxy_;
    std::chrono::milliseconds latency_;
    std::mutex mutex_;
    std::optional<int> slowed_;
};

/// The descriptor of this fault (nemesis/slow_reply_descriptor.cpp).
FaultDescriptor slow_reply_fault();

}  // namespace lockcheck
