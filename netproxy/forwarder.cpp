#include "netproxy/forwarder.hpp"

#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

namespace lockcheck::netproxy {

namespace {
/// Reads and writes per pump before other connections get their turn.
constexpr int kMaxRounds = 8;
/// With a bandwidth limit, wait for this many tokens (or the queue's size)
/// instead of writing byte by byte.
constexpr std::size_t kBandwidthQuantum = 4096;
}  // namespace

void Side::note_events(std::uint32_t events) {
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) readable = true;
    if (events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) writable = true;
}

Forwarder::Forwarder(std::uint64_t seed, std::size_t buffer_limit, DirectionCounters& counters, HeadRewriter head)
    : rewriter_(std::move(head)), schedule_(seed), buffer_limit_(buffer_limit), counters_(counters) {}

void Forwarder::set_fault(const DirectionFault& fault, Clock::time_point now) {
    fault_ = fault;
    if (fault_.flow == Flow::discard) {
        counters_.discarded += line_.clear() + head_.size();
        head_.clear();
        rewriter_ = nullptr;  // what comes after a discard is no stream head
    }
    bucket_.set_rate(fault_.bytes_per_second, now);
}

bool Forwarder::can_read(const Side& src, const Side& dst) const {
    if (!src.readable || src.dead || end_ != StreamEnd::open) return false;
    if (fault_.flow == Flow::discard) return true;
    return fault_.flow == Flow::pass && !dst.dead && line_.size() < buffer_limit_;
}

bool Forwarder::can_write(const Side& dst) const {
    return fault_.flow == Flow::pass && !dst.dead && dst.connected && dst.writable;
}

void Forwarder::end_stream(StreamEnd end, Clock::time_point now) {
    if (rewriter_) release_head(std::nullopt, now);  // a head cut short passes unchanged
    end_ = end;
    end_release_ = schedule_.next(now, fault_.latency, fault_.jitter);
}

bool Forwarder::read_once(Side& src, const Side& dst, Clock::time_point now, std::span<std::byte> scratch) {
    if (!can_read(src, dst)) return false;
    std::size_t room = scratch.size();
    if (fault_.flow != Flow::discard) room = std::min(room, buffer_limit_ - line_.size());
    const ssize_t count = ::recv(src.fd.get(), scratch.data(), room, 0);
    if (count > 0) {
        const auto bytes = scratch.first(static_cast<std::size_t>(count));
        if (fault_.flow == Flow::discard) {
            counters_.discarded += bytes.size();
        } else {
            queue(bytes, now);
        }
        return true;
    }
    if (count == 0) {
        src.readable = false;
        end_stream(StreamEnd::fin, now);
        return true;
    }
    if (errno == EINTR) return true;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        src.readable = false;
        return false;
    }
    src.dead = true;  // ECONNRESET and the like; pump() ends the stream with a reset
    return true;
}

void Forwarder::queue(std::span<const std::byte> bytes, Clock::time_point now) {
    if (!rewriter_) {
        line_.push(bytes, schedule_.next(now, fault_.latency, fault_.jitter));
        return;
    }
    head_.insert(head_.end(), bytes.begin(), bytes.end());
    auto rewrite = rewriter_(head_);
    if (rewrite || head_.size() >= kMaxHeadBytes) release_head(std::move(rewrite), now);
}

void Forwarder::release_head(std::optional<HeadRewrite> rewrite, Clock::time_point now) {
    rewriter_ = nullptr;
    std::vector<std::byte> out;
    std::size_t consumed = 0;
    if (rewrite) {
        out = std::move(rewrite->replacement);
        consumed = std::min(rewrite->consumed, head_.size());
    }
    out.insert(out.end(), head_.begin() + static_cast<std::ptrdiff_t>(consumed), head_.end());
    head_.clear();
    if (!out.empty()) line_.push(out, schedule_.next(now, fault_.latency, fault_.jitter));
}

bool Forwarder::write_once(Side& dst, Clock::time_point now) {
    if (!can_write(dst) || dst.write_shut) return false;
    auto bytes = line_.released_front(now);
    if (bytes.empty()) return false;
    if (bucket_.limited()) bytes = bytes.first(std::min(bytes.size(), bucket_.available(now)));
    if (bytes.empty()) return false;
    const ssize_t count = ::send(dst.fd.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (count > 0) {
        const auto written = static_cast<std::size_t>(count);
        line_.consume(written);
        bucket_.take(written);
        counters_.forwarded += written;
        return true;
    }
    if (count < 0 && errno == EINTR) return true;
    if (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        dst.writable = false;
        return false;
    }
    dst.dead = true;  // EPIPE, ECONNRESET: the peer is gone
    return true;
}

void Forwarder::deliver_end(Side& dst, Clock::time_point now) {
    if (end_ == StreamEnd::open || end_delivered_ || !line_.empty()) return;
    if (dst.dead) {
        end_delivered_ = true;
        return;
    }
    if (fault_.flow != Flow::pass || !dst.connected || end_release_ > now) return;
    if (end_ == StreamEnd::fin) {
        ::shutdown(dst.fd.get(), SHUT_WR);
        dst.write_shut = true;
    }
    end_delivered_ = true;
}

void Forwarder::pump(Side& src, Side& dst, Clock::time_point now, std::span<std::byte> scratch) {
    for (int round = 0; round < kMaxRounds; ++round) {
        const bool wrote = write_once(dst, now);
        const bool read = read_once(src, dst, now, scratch);
        if (!wrote && !read) break;
    }
    if (src.dead && end_ == StreamEnd::open) end_stream(StreamEnd::reset, now);
    if (dst.dead) counters_.discarded += line_.clear();
    deliver_end(dst, now);
}

std::optional<Clock::time_point> Forwarder::next_wake(const Side& src, const Side& dst, Clock::time_point now) {
    if (can_read(src, dst)) return now;
    if (fault_.flow != Flow::pass || dst.dead || !dst.connected) return std::nullopt;
    if (const auto release = line_.next_release()) {
        if (!dst.writable) return std::nullopt;  // EPOLLOUT will come
        if (*release > now) return *release;
        if (bucket_.limited()) return bucket_.when_available(std::min(line_.size(), kBandwidthQuantum), now);
        return now;
    }
    if (end_ != StreamEnd::open && !end_delivered_) return std::max(end_release_, now);
    return std::nullopt;
}

}  // namespace lockcheck::netproxy
