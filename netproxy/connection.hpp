// One proxied connection: the accepted client socket, the socket to the
// upstream server, and a Forwarder for each direction. It moves bytes and
// reports how it ended; registering its sockets with the event loop and
// deciding its fault belong to its Link.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "netproxy/connection_info.hpp"
#include "netproxy/fault.hpp"
#include "netproxy/forwarder.hpp"
#include "netproxy/socket_ops.hpp"

namespace lockcheck::netproxy {

enum class SideName : std::uint8_t { client, upstream };

/// How a connection ended: both streams finished (each side got its FIN), or
/// a reset must reach both sides.
enum class Ending : std::uint8_t { none, close, reset };

class Connection {
public:
    /// `upstream`: the connect to the server, started (it may have failed
    /// already). `seed` makes the jitter draws of both directions reproducible.
    /// `to_server_head`: rewrites the start of the client's stream, or empty.
    Connection(ConnectionInfo info, UniqueFd client, ConnectStart upstream, std::uint64_t seed,
               std::size_t buffer_limit, DirectionCounters& to_server, DirectionCounters& to_client,
               HeadRewriter to_server_head = {});

    const ConnectionInfo& info() const { return info_; }
    int fd(SideName side) const { return side_(side).fd.get(); }

    /// Sets both directions' faults (reset_connections is the link's to act on).
    void apply(const LinkFault& fault, Clock::time_point now);
    /// Records epoll's events for one socket (completes the upstream's connect).
    void note_events(SideName side, std::uint32_t events);

    struct Progress {
        Ending ending = Ending::none;
        /// When pump() must run again without a socket event.
        std::optional<Clock::time_point> wake_at;
    };
    /// Moves bytes both ways as far as possible without blocking.
    Progress pump(Clock::time_point now, std::span<std::byte> scratch);

    /// True when the connect to the upstream failed (refused, say) before it
    /// was ever established.
    bool upstream_refused() const { return upstream_.dead && !upstream_ever_connected_; }
    /// When upstream_refused() became true (or the last replace_upstream()).
    Clock::time_point upstream_failed_at() const { return upstream_failed_at_; }
    /// A new connect to the upstream in place of a refused one (nothing was
    /// forwarded to the old one). `now`: when it starts.
    void replace_upstream(ConnectStart upstream, Clock::time_point now);

    /// Closes both sockets with RST.
    void reset_both();

private:
    const Side& side_(SideName side) const { return side == SideName::client ? client_ : upstream_; }
    Side& side_(SideName side) { return side == SideName::client ? client_ : upstream_; }

    ConnectionInfo info_;
    Side client_;
    Side upstream_;
    bool upstream_ever_connected_ = false;
    Clock::time_point upstream_failed_at_{};
    Forwarder to_server_;
    Forwarder to_client_;
};

}  // namespace lockcheck::netproxy
