// What every fault acting through the run's fault proxy
// (nemesis/proxied_network.hpp) shares: one netproxy::LinkFault set on the
// links of its targets, nodes (nemesis/proxy_node_fault.hpp) or a worker
// (nemesis/proxy_worker_fault.hpp), until the heal puts them back to pass.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nemesis/fault.hpp"
#include "nemesis/proxied_network.hpp"
#include "netproxy/fault.hpp"

namespace lockcheck {

/// Why a fault that acts through the proxy cannot run without it ("the run
/// has no fault proxy"), or nullopt when `proxy` is set.
std::optional<std::string> proxy_unavailable_reason(const ProxiedNetwork* proxy);

class ProxyLinkFault : public Fault {
public:
    /// `proxy` may be null (a run without the proxy): the fault is then unavailable.
    ProxyLinkFault(std::string kind, ProxiedNetwork* proxy, netproxy::LinkFault fault)
        : proxy_(proxy), fault_(fault), kind_(std::move(kind)) {}
    std::string kind() const override { return kind_; }
    std::optional<std::string> unavailable_reason() const override { return proxy_unavailable_reason(proxy_); }
    /// Puts the struck targets' links back to pass (every link, should that fail). Idempotent.
    void heal() noexcept override;

protected:
    /// Sets `fault` on the links of `target` (a node or a worker number).
    virtual void set_links(int target, const netproxy::LinkFault& fault) = 0;
    /// Sets the fault on `target`'s links and remembers it for the heal (a
    /// fault may strike several targets before it heals).
    void strike(int target);

    ProxiedNetwork* proxy_;
    netproxy::LinkFault fault_;

private:
    std::string kind_;
    std::mutex mutex_;
    std::vector<int> struck_;
};

}  // namespace lockcheck
