#include "netproxy/link.hpp"

#include <sys/epoll.h>
#include <sys/socket.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace lockcheck::netproxy {

namespace {
constexpr std::uint32_t kSocketEvents = EPOLLIN | EPOLLOUT | EPOLLRDHUP;

/// Distinct jitter draws per connection, reproducible from the proxy's seed.
std::uint64_t connection_seed(std::uint64_t proxy_seed, ConnectionId id) {
    return proxy_seed * 6364136223846793005ULL + id * 1442695040888963407ULL;
}
}  // namespace

Link::Link(LinkId id, const Endpoint& listen, const Endpoint& upstream, EventLoop& loop, const LinkContext& context,
           LinkOptions options)
    : loop_(loop), context_(context), options_(std::move(options)), listener_(listen_on(listen)) {
    info_ = LinkInfo{id, local_endpoint(listener_.get()), upstream};
    listener_key_ = loop_.add(listener_.get(), EPOLLIN, [this](std::uint32_t) { on_listener_ready(); });
}

Link::~Link() {
    loop_.remove(listener_key_);
    for (auto& [id, entry] : connections_) {
        loop_.remove(entry.client_key);
        loop_.remove(entry.upstream_key);
    }
}

void Link::set_fault(const LinkFault& fault) {
    validate(fault);
    if (fault.hang_new_connects != fault_.hang_new_connects)
        set_drop_all_filter(listener_.get(), fault.hang_new_connects);
    fault_ = fault;
    reapply();
}

void Link::add_rule(RuleId id, ConnectionSelector selector, const LinkFault& fault) {
    validate(fault);
    rules_.push_back(Rule{id, std::move(selector), fault});
    reapply();
}

bool Link::remove_rule(RuleId id) {
    const auto erased = std::erase_if(rules_, [id](const Rule& rule) { return rule.id == id; });
    if (erased == 0) return false;
    reapply();
    return true;
}

void Link::heal() {
    rules_.clear();
    set_fault(faults::pass());
}

std::vector<ConnectionInfo> Link::connections() const {
    std::vector<ConnectionInfo> infos;
    infos.reserve(connections_.size());
    for (const auto& [id, entry] : connections_) infos.push_back(entry.connection->info());
    return infos;
}

LinkFault Link::effective_fault(const ConnectionInfo& connection) const {
    LinkFault fault = fault_;
    for (const auto& rule : rules_) {
        if (rule.selector(connection)) fault = combine(fault, rule.fault);
    }
    return fault;
}

void Link::reapply() {
    const auto now = Clock::now();
    std::vector<ConnectionId> ids;
    ids.reserve(connections_.size());
    for (const auto& [id, entry] : connections_) ids.push_back(id);
    for (const ConnectionId id : ids) {
        Connection& connection = *connections_.at(id).connection;
        const LinkFault fault = effective_fault(connection.info());
        if (fault.reset_connections) {
            ++stats_.reset_by_fault;
            retire(id, true);
            continue;
        }
        connection.apply(fault, now);
        settle(id);
    }
}

void Link::on_listener_ready() {
    for (;;) {
        const int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            accept_connection(UniqueFd(fd));
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            spdlog::warn("fault proxy {}: accept failed: {}", to_string(info_.listen), std::strerror(errno));
        return;
    }
}

void Link::accept_connection(UniqueFd client) {
    ++stats_.accepted;
    ConnectionInfo info;
    info.id = (*context_.next_connection_id)++;
    info.link = info_.id;
    try {
        info.client = peer_endpoint(client.get());
    } catch (const std::system_error&) {
        close_with_reset(client);  // the client is gone already (ENOTCONN)
        return;
    }
    if (effective_fault(info).reset_connections) {  // no upstream connection for it
        ++stats_.reset_by_fault;
        close_with_reset(client);
        return;
    }
    try {
        open_connection(info, std::move(client));
    } catch (const std::exception& error) {
        // E.g. no descriptor left (EMFILE): this client's connection closes, the link goes on.
        spdlog::warn("fault proxy {}: connection from {} not set up: {}", to_string(info_.listen),
                     to_string(info.client), error.what());
        return;
    }
    Entry& entry = connections_.at(info.id);
    // Now with upstream_local known, which a selector may look at.
    const LinkFault fault = effective_fault(entry.connection->info());
    if (fault.reset_connections) {
        ++stats_.reset_by_fault;
        retire(info.id, true);
        return;
    }
    entry.connection->apply(fault, Clock::now());
    if (context_.on_accept)
        loop_.defer([on_accept = context_.on_accept, info = entry.connection->info()] { on_accept(info); });
    // The first pump comes after the deferred on_accept: rules it adds apply from the first byte.
    loop_.wake_at(entry.client_key, Clock::now());
}

void Link::open_connection(ConnectionInfo info, UniqueFd client) {
    set_no_delay(client.get());
    ConnectStart upstream = start_connect(info_.upstream);  // the connection learns its upstream_local
    const ConnectionId id = info.id;
    auto connection = std::make_unique<Connection>(std::move(info), std::move(client), std::move(upstream),
                                                   connection_seed(context_.seed, id), context_.buffer_bytes,
                                                   stats_.to_server, stats_.to_client, options_.to_server_head);
    const auto client_key =
        loop_.add(connection->fd(SideName::client), kSocketEvents,
                  [this, id](std::uint32_t events) { on_connection_event(id, SideName::client, events); });
    try {
        const auto upstream_key =
            loop_.add(connection->fd(SideName::upstream), kSocketEvents,
                      [this, id](std::uint32_t events) { on_connection_event(id, SideName::upstream, events); });
        connections_.emplace(id, Entry{std::move(connection), client_key, upstream_key,
                                       Clock::now() + options_.upstream_refused_patience});
    } catch (...) {
        loop_.remove(client_key);
        throw;
    }
    ++stats_.open;
}

void Link::on_connection_event(ConnectionId id, SideName side, std::uint32_t events) {
    const auto found = connections_.find(id);
    if (found == connections_.end()) return;
    if (events != 0) found->second.connection->note_events(side, events);
    settle(id);
}

bool Link::retry_refused_upstream(Entry& entry) {
    constexpr auto kRetryEvery = std::chrono::milliseconds(50);
    Connection& connection = *entry.connection;
    const auto now = Clock::now();
    if (!connection.upstream_refused() || now >= entry.refused_until) return false;
    const auto retry_at = connection.upstream_failed_at() + kRetryEvery;
    if (now < retry_at) {
        loop_.wake_at(entry.client_key, retry_at);
        return true;
    }
    loop_.remove(entry.upstream_key);
    connection.replace_upstream(start_connect(info_.upstream), now);
    const ConnectionId id = connection.info().id;
    entry.upstream_key = loop_.add(connection.fd(SideName::upstream), kSocketEvents, [this, id](std::uint32_t events) {
        on_connection_event(id, SideName::upstream, events);
    });
    if (connection.upstream_refused()) loop_.wake_at(entry.client_key, now + kRetryEvery);
    return true;
}

void Link::settle(ConnectionId id) {
    Entry& entry = connections_.at(id);
    if (retry_refused_upstream(entry)) return;
    const auto progress = entry.connection->pump(Clock::now(), context_.scratch);
    if (progress.ending != Ending::none) {
        retire(id, progress.ending == Ending::reset);
    } else if (progress.wake_at) {
        loop_.wake_at(entry.client_key, *progress.wake_at);
    }
}

void Link::retire(ConnectionId id, bool reset) {
    auto node = connections_.extract(id);
    if (node.empty()) return;
    Entry& entry = node.mapped();
    loop_.remove(entry.client_key);
    loop_.remove(entry.upstream_key);
    if (reset) entry.connection->reset_both();
    --stats_.open;
    // Destroyed (its sockets closed) after the current handler, which may be its own.
    loop_.defer([connection = std::shared_ptr<Connection>(std::move(entry.connection))] {});
}

}  // namespace lockcheck::netproxy
