// One proxied address: a listening socket, the upstream it forwards to, the
// connections accepted on it, and their faults. A connection's fault is the
// link-wide fault combined with every rule that selects it; a change is
// applied to every open connection at once. Lives on the loop's thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "netproxy/connection.hpp"
#include "netproxy/connection_info.hpp"
#include "netproxy/event_loop.hpp"
#include "netproxy/fault.hpp"

namespace lockcheck::netproxy {

struct LinkInfo {
    LinkId id = 0;
    Endpoint listen;  ///< with the port actually bound
    Endpoint upstream;
};

struct LinkStats {
    std::uint64_t accepted = 0;        ///< connections accepted
    std::uint64_t open = 0;            ///< connections open now
    std::uint64_t reset_by_fault = 0;  ///< connections the reset fault closed (new ones included)
    DirectionCounters to_server;
    DirectionCounters to_client;
};

/// What one link does beyond forwarding (ProxyServer::add_link).
struct LinkOptions {
    /// Rewrites the start of every connection's client→server stream
    /// (netproxy/head_rewriter.hpp), or empty.
    HeadRewriter to_server_head = {};
    /// When the upstream refuses a connection (not listening yet, say a
    /// server that is about to bind its port), the link tries again every
    /// 50 ms for this long before it resets the client, without reading the
    /// client's bytes meanwhile: as a client that retries a refused connect
    /// would. 0: the client is reset at once.
    std::chrono::milliseconds upstream_refused_patience{0};
};

/// What every link of one proxy shares.
struct LinkContext {
    std::size_t buffer_bytes;
    std::uint64_t seed;
    std::function<void(const ConnectionInfo&)> on_accept;  ///< may be empty
    std::span<std::byte> scratch;                          ///< read buffer of the loop's thread
    ConnectionId* next_connection_id;                      ///< proxy-wide counter
};

class Link {
public:
    /// Listens on `listen` (port 0: ephemeral). Throws std::system_error when
    /// it cannot, std::invalid_argument for an address that is not IPv4.
    /// `upstream` must be a valid IPv4 endpoint.
    Link(LinkId id, const Endpoint& listen, const Endpoint& upstream, EventLoop& loop, const LinkContext& context,
         LinkOptions options = {});
    /// Closes the listener and every connection (FIN to both sides; queued
    /// bytes are dropped).
    ~Link();
    Link(const Link&) = delete;
    Link& operator=(const Link&) = delete;

    const LinkInfo& info() const { return info_; }
    const LinkFault& fault() const { return fault_; }
    /// Throws std::invalid_argument for an invalid fault (validate()).
    void set_fault(const LinkFault& fault);
    void add_rule(RuleId id, ConnectionSelector selector, const LinkFault& fault);
    /// False when the link has no such rule.
    bool remove_rule(RuleId id);
    /// Link-wide pass, every rule removed.
    void heal();
    std::vector<ConnectionInfo> connections() const;
    const LinkStats& stats() const { return stats_; }

private:
    struct Rule {
        RuleId id;
        ConnectionSelector selector;
        LinkFault fault;
    };
    struct Entry {
        std::unique_ptr<Connection> connection;
        EventLoop::Key client_key;
        EventLoop::Key upstream_key;
        Clock::time_point refused_until;  ///< retry a refused upstream connect until then
    };

    void on_listener_ready();
    void accept_connection(UniqueFd client);
    /// Connects upstream and registers both sockets; throws when it cannot.
    void open_connection(ConnectionInfo info, UniqueFd client);
    void on_connection_event(ConnectionId id, SideName side, std::uint32_t events);
    /// Pumps the connection, then retires it or schedules its next wake.
    void settle(ConnectionId id);
    /// With a refused upstream and patience left: connects again (at most
    /// every 50 ms) and returns true; the connection is not pumped meanwhile.
    bool retry_refused_upstream(Entry& entry);
    /// Unregisters and closes a connection (with RST when `reset`).
    void retire(ConnectionId id, bool reset);
    LinkFault effective_fault(const ConnectionInfo& connection) const;
    /// Applies the current faults to every open connection.
    void reapply();

    LinkInfo info_;
    EventLoop& loop_;
    LinkContext context_;
    LinkOptions options_;
    UniqueFd listener_;
    EventLoop::Key listener_key_;
    LinkFault fault_;
    std::vector<Rule> rules_;
    std::map<ConnectionId, Entry> connections_;
    LinkStats stats_;
};

}  // namespace lockcheck::netproxy
