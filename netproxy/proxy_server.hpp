// The fault proxy: TCP links, each listening on an address and forwarding to
// an upstream server, with faults that change at any moment (docs/nemesis.md,
// "The fault proxy").
//
// One thread runs every link (epoll, non-blocking sockets). The methods may
// be called from any thread: each runs on the proxy's thread between two
// events and returns once its change is in effect for every connection.
// stop() (and the destructor) closes every socket and joins the thread. The
// proxy lives in the process that owns it: if that process is killed (even
// with SIGKILL), the kernel closes its sockets and the clients see their
// connections end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "netproxy/connection_info.hpp"
#include "netproxy/fault.hpp"
#include "netproxy/head_rewriter.hpp"
#include "netproxy/link.hpp"
#include "netproxy/loop_thread.hpp"

namespace lockcheck::netproxy {

struct ProxyOptions {
    /// Per direction of each connection: the proxy stops reading a side while
    /// this many bytes wait to be written to the other.
    std::size_t buffer_bytes = 256 * 1024;
    /// Seeds the jitter draws (reproducible per connection id).
    std::uint64_t seed = 1;
    /// Called on the proxy's thread for every connection accepted (not for
    /// one the reset fault closes at once), before any of its bytes are read.
    /// It may call the proxy's methods (add_rule, say), except stop().
    std::function<void(const ConnectionInfo&)> on_accept;
};

class ProxyServer {
public:
    /// Starts the proxy's thread (no link yet).
    explicit ProxyServer(ProxyOptions options = {});
    /// stop().
    ~ProxyServer();
    ProxyServer(const ProxyServer&) = delete;
    ProxyServer& operator=(const ProxyServer&) = delete;

    /// Listens on `listen` (port 0: ephemeral) and forwards each connection
    /// to `upstream`, with no fault, and with `options` (a head rewrite, a
    /// patience with refused upstream connects: LinkOptions). Throws
    /// std::invalid_argument when an address is not IPv4, std::system_error
    /// when it cannot listen.
    LinkInfo add_link(const Endpoint& listen, const Endpoint& upstream, LinkOptions options = {});
    /// Closes the link's listener and connections.
    void remove_link(LinkId link);
    std::vector<LinkInfo> links() const;

    /// The link-wide fault, applied to every connection (open and new).
    void set_fault(LinkId link, const LinkFault& fault);
    /// A fault for the connections `selector` picks, open and new, combined
    /// with the link-wide one (combine()) until remove_rule().
    RuleId add_rule(LinkId link, ConnectionSelector selector, const LinkFault& fault);
    /// No-op when the rule is gone already.
    void remove_rule(RuleId rule);
    /// Back to pass: the link-wide fault and every rule of the link.
    void heal(LinkId link);

    std::vector<ConnectionInfo> connections(LinkId link) const;
    LinkStats stats(LinkId link) const;

    /// Closes every socket and joins the thread; later calls throw
    /// ProxyStopped. Idempotent; not from on_accept (std::logic_error).
    void stop();

private:
    /// The link, on the proxy's thread; throws std::invalid_argument when unknown.
    Link& link(LinkId id) const;

    ProxyOptions options_;
    std::vector<std::byte> scratch_;
    std::map<LinkId, std::unique_ptr<Link>> links_;
    std::map<RuleId, LinkId> rule_links_;
    LinkId next_link_id_ = 1;
    RuleId next_rule_id_ = 1;
    ConnectionId next_connection_id_ = 1;
    LoopThread thread_;  // last: started once everything it uses exists
};

}  // namespace lockcheck::netproxy
