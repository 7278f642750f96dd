#include "netproxy/connection.hpp"

#include <sys/epoll.h>

#include <algorithm>

namespace lockcheck::netproxy {

namespace {
/// Different jitter draws for the two directions of one connection.
constexpr std::uint64_t kToClientSeedSalt = 0x9e3779b97f4a7c15ULL;

std::optional<Clock::time_point> earliest(std::optional<Clock::time_point> a, std::optional<Clock::time_point> b) {
    if (!a) return b;
    if (!b) return a;
    return std::min(*a, *b);
}
}  // namespace

Connection::Connection(ConnectionInfo info, UniqueFd client, ConnectStart upstream, std::uint64_t seed,
                       std::size_t buffer_limit, DirectionCounters& to_server, DirectionCounters& to_client,
                       HeadRewriter to_server_head)
    : info_(std::move(info)),
      to_server_(seed, buffer_limit, to_server, std::move(to_server_head)),
      to_client_(seed ^ kToClientSeedSalt, buffer_limit, to_client) {
    client_.fd = std::move(client);
    replace_upstream(std::move(upstream), Clock::now());
}

void Connection::replace_upstream(ConnectStart upstream, Clock::time_point now) {
    upstream_ = Side{};
    upstream_.fd = std::move(upstream.fd);
    upstream_.connected = upstream.connected;
    upstream_.dead = upstream.error != 0;
    upstream_ever_connected_ = upstream.connected;
    upstream_failed_at_ = now;
    if (upstream.error == 0 && upstream_.fd.get() >= 0) {
        try {
            set_no_delay(upstream_.fd.get());
            info_.upstream_local = local_endpoint(upstream_.fd.get());
        } catch (const std::exception&) {  // the socket failed already: the connect's error will tell
        }
    }
}

void Connection::apply(const LinkFault& fault, Clock::time_point now) {
    to_server_.set_fault(fault.to_server, now);
    to_client_.set_fault(fault.to_client, now);
}

void Connection::note_events(SideName side, std::uint32_t events) {
    Side& socket = side_(side);
    if (!socket.connected && !socket.dead && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        if (pending_error(socket.fd.get()) == 0) {
            socket.connected = true;
            if (side == SideName::upstream) upstream_ever_connected_ = true;
        } else {
            socket.dead = true;
            if (side == SideName::upstream) upstream_failed_at_ = Clock::now();
            return;
        }
    }
    if (socket.connected) socket.note_events(events);
}

Connection::Progress Connection::pump(Clock::time_point now, std::span<std::byte> scratch) {
    // A side found dead while writing one direction ends the other
    // direction's stream; the second pass passes that reset on.
    for (int pass = 0; pass < 2; ++pass) {
        const bool client_was_dead = client_.dead;
        const bool upstream_was_dead = upstream_.dead;
        to_server_.pump(client_, upstream_, now, scratch);
        to_client_.pump(upstream_, client_, now, scratch);
        if (client_.dead == client_was_dead && upstream_.dead == upstream_was_dead) break;
    }
    const bool reset_delivered = (to_server_.end_delivered() && to_server_.end() == StreamEnd::reset) ||
                                 (to_client_.end_delivered() && to_client_.end() == StreamEnd::reset);
    if (reset_delivered) return {Ending::reset, std::nullopt};
    if (to_server_.end_delivered() && to_client_.end_delivered()) return {Ending::close, std::nullopt};
    return {Ending::none,
            earliest(to_server_.next_wake(client_, upstream_, now), to_client_.next_wake(upstream_, client_, now))};
}

void Connection::reset_both() {
    close_with_reset(client_.fd);
    close_with_reset(upstream_.fd);
}

}  // namespace lockcheck::netproxy
