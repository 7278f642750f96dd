// The run's fault proxy in front of every node's client port
// (docs/nemesis.md, "Network faults through the proxy").
//
// A run whose nemesis has a proxy fault (FaultDescriptor::needs_proxy: delay,
// slow-reply, blackhole, reset) makes one ProxiedNetwork before its workers.
// Each worker process gets links of its own, one per client endpoint of the
// topology, listening on 127.0.0.1 (ephemeral ports) and forwarding to that
// endpoint; the worker is told the links' addresses instead of the servers'.
// Because the links of one worker are its own, a fault can strike one node
// (every worker's link to it) or one worker (every link of that worker, e.g.
// the lock holder's) without knowing the workers' source ports. The nemesis,
// the lock locator and the topology still reach the servers directly.
//
// Faults are link-wide faults (netproxy::LinkFault) set per node and per
// worker; a link gets both, combined (netproxy::combine), and a link made
// later (a replaced worker) gets the faults in force; the links of the worker
// it replaced are closed (drop_worker). The proxy runs on a
// thread of the lockcheck process: the destructor closes every socket and
// joins it; if the process dies (even SIGKILL) the kernel closes the sockets.
// Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "netproxy/fault.hpp"
#include "netproxy/proxy_server.hpp"

namespace lockcheck {

class ProxiedNetwork {
public:
    /// In front of `upstreams` ("ip:port", the topology's client endpoints in
    /// order). Throws std::invalid_argument naming an endpoint that is not
    /// "ip:port" (a Sentinel endpoint, say). `seed` seeds the jitter draws.
    ProxiedNetwork(std::vector<std::string> upstreams, std::uint64_t seed);
    ProxiedNetwork(const ProxiedNetwork&) = delete;
    ProxiedNetwork& operator=(const ProxiedNetwork&) = delete;

    /// How many endpoints ("nodes") the proxy stands in front of.
    int node_count() const { return static_cast<int>(upstreams_.size()); }
    /// The upstream endpoint `node` ("ip:port"), for logs and fault targets.
    std::string upstream(int node) const;

    /// The endpoints worker `process` connects to, in the order of the
    /// upstreams ("127.0.0.1:port"); its links are made on the first call,
    /// with the faults in force. Throws std::system_error when it cannot listen.
    std::vector<std::string> endpoints_for(int process);

    /// Closes the links of worker `process` (a worker that was replaced) and
    /// forgets its fault; summary() still counts what they carried. Never throws.
    void drop_worker(int process) noexcept;

    /// The fault of every worker's link to `node`, until changed (pass: none).
    void set_node_fault(int node, const netproxy::LinkFault& fault);
    /// The fault of every link of worker `process`, until changed (pass: none).
    void set_worker_fault(int process, const netproxy::LinkFault& fault);
    /// Every link back to pass. Never throws.
    void heal_all() noexcept;

    /// Bytes discarded and connections reset by faults, summed over the links:
    /// "proxy: N connections, M reset by faults, K bytes discarded".
    std::string summary() const;

private:
    /// The fault link (process, node) should have now.
    netproxy::LinkFault fault_of(int process, int node) const;
    /// Sets the fault of every link for which `affected(process, node)` holds.
    template <typename Affected>
    void reapply(Affected affected);

    std::vector<netproxy::Endpoint> upstreams_;
    mutable std::mutex mutex_;
    std::map<int, netproxy::LinkFault> node_faults_;
    std::map<int, netproxy::LinkFault> worker_faults_;
    std::map<std::pair<int, int>, netproxy::LinkInfo> links_;  ///< (process, node) -> its link
    struct Counts {
        std::uint64_t links = 0, accepted = 0, reset = 0, discarded = 0;
    };
    Counts dropped_;               ///< what the links of replaced workers carried
    netproxy::ProxyServer proxy_;  // last: stopped first
};

}  // namespace lockcheck
