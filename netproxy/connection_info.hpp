// What the proxy tells about a connection, and how faults pick connections.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "netproxy/endpoint.hpp"

namespace lockcheck::netproxy {

using LinkId = std::uint64_t;
using ConnectionId = std::uint64_t;
using RuleId = std::uint64_t;

struct ConnectionInfo {
    ConnectionId id = 0;  ///< unique within the proxy, never reused
    LinkId link = 0;
    /// The client's address and port as the proxy accepted it: a client that
    /// knows its socket's local address (getsockname) can be found by it.
    Endpoint client;
    /// The proxy's own address and port toward the server: the client as the
    /// server sees it (e.g. in Redis's CLIENT LIST).
    Endpoint upstream_local;
};

/// Picks the connections a rule applies to. Called on the proxy's thread, for
/// every open connection when the rule is added and for every new one; it
/// must be quick and must not throw.
using ConnectionSelector = std::function<bool(const ConnectionInfo&)>;

namespace selectors {
ConnectionSelector all();
ConnectionSelector connection(ConnectionId id);
/// The connection accepted from exactly this address and port.
ConnectionSelector client(const Endpoint& client);
/// Every connection from this address (any port).
ConnectionSelector client_address(const std::string& address);
/// The connection the server sees as coming from this address and port.
ConnectionSelector upstream_local(const Endpoint& upstream_local);
}  // namespace selectors

}  // namespace lockcheck::netproxy
