// The few socket operations the proxy needs, on non-blocking IPv4 TCP sockets.
// Every socket made here is non-blocking and close-on-exec, so a server the
// controller spawns never inherits one.
#pragma once

#include "netproxy/endpoint.hpp"
#include "netproxy/unique_fd.hpp"

namespace lockcheck::netproxy {

/// A listening socket bound to `endpoint` (port 0: an ephemeral port).
/// Throws std::system_error naming the endpoint when it cannot bind.
UniqueFd listen_on(const Endpoint& endpoint);

/// The address a socket is bound to / connected to.
Endpoint local_endpoint(int fd);
Endpoint peer_endpoint(int fd);

struct ConnectStart {
    UniqueFd fd;
    bool connected = false;  ///< true: connected already; false: in progress, or failed (error)
    int error = 0;           ///< errno of a connect that failed at once (e.g. ECONNREFUSED)
};

/// Starts a non-blocking connect to `endpoint`. Throws std::system_error only
/// when no socket can be made (e.g. EMFILE).
ConnectStart start_connect(const Endpoint& endpoint);

/// The error of a finished non-blocking connect (SO_ERROR): 0 when it succeeded.
int pending_error(int fd);

/// TCP_NODELAY: small writes leave at once (the proxy must not add Nagle's wait).
void set_no_delay(int fd);

/// Closes `fd` with SO_LINGER 0: the peer gets RST instead of FIN
/// (ECONNRESET on its next read or write).
void close_with_reset(UniqueFd& fd);

/// Attaches (true) or detaches (false) a socket filter that drops every
/// packet. On a listening socket it drops the SYNs: a client's connect()
/// hangs and retries as behind an iptables DROP rule, and completes once the
/// filter is gone. Needs no privilege.
void set_drop_all_filter(int fd, bool drop);

}  // namespace lockcheck::netproxy
