// One direction of a proxied connection: reads bytes from the source socket,
// queues them with their release time, and writes them to the destination
// socket under the direction's fault. It never blocks and never busy-waits:
// it reads while its queue has room (backpressure: a full queue leaves the
// bytes in the kernel, and TCP's flow control slows the sender), writes what
// is released until the destination's buffer is full, and says when it must
// run again (a release time, the bandwidth's next tokens).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "netproxy/delay_line.hpp"
#include "netproxy/fault.hpp"
#include "netproxy/head_rewriter.hpp"
#include "netproxy/release_schedule.hpp"
#include "netproxy/token_bucket.hpp"
#include "netproxy/unique_fd.hpp"

namespace lockcheck::netproxy {

/// One socket of a connection and what is known about it. Readiness is
/// cached because the sockets are registered edge-triggered: `readable`
/// stays true until a read returns EAGAIN, `writable` until a write does.
struct Side {
    UniqueFd fd;
    bool readable = false;
    bool writable = false;
    bool connected = true;    ///< false while the upstream's connect is in progress
    bool dead = false;        ///< reset by its peer or failed: nothing more is read or written
    bool write_shut = false;  ///< our FIN was sent (shutdown SHUT_WR)

    /// Records the readiness epoll reported.
    void note_events(std::uint32_t events);
};

/// How a source's stream ended, as the proxy read it.
enum class StreamEnd : std::uint8_t { open, fin, reset };

struct DirectionCounters {
    std::uint64_t forwarded = 0;  ///< bytes written to the destination
    std::uint64_t discarded = 0;  ///< bytes thrown away (discard flow, or a destination that is gone)
};

class Forwarder {
public:
    /// `buffer_limit`: reading stops while this many bytes are queued.
    /// `seed`: the jitter draws. `counters` must outlive the forwarder.
    /// `head`: rewrites the start of the stream (netproxy/head_rewriter.hpp),
    /// or empty.
    Forwarder(std::uint64_t seed, std::size_t buffer_limit, DirectionCounters& counters, HeadRewriter head = {});

    /// Takes effect at once; bytes already queued keep their release times
    /// (a discard drops them).
    void set_fault(const DirectionFault& fault, Clock::time_point now);

    /// Moves what can be moved without blocking from `src` to `dst`, using
    /// `scratch` for reads. A source that is dead ends the stream with a
    /// reset, queued behind the bytes read before.
    void pump(Side& src, Side& dst, Clock::time_point now, std::span<std::byte> scratch);

    /// When pump() must run again although no socket event comes: a release
    /// time, the bandwidth's next tokens, or `now` when it stopped early to
    /// let other connections run. nullopt: only a socket event or a fault
    /// change can make progress.
    std::optional<Clock::time_point> next_wake(const Side& src, const Side& dst, Clock::time_point now);

    StreamEnd end() const { return end_; }
    /// True once the end was passed on: FIN sent, reset due (the connection
    /// resets the destination), or the destination is gone.
    bool end_delivered() const { return end_delivered_; }
    std::size_t queued() const { return line_.size(); }

private:
    bool can_read(const Side& src, const Side& dst) const;
    bool can_write(const Side& dst) const;
    /// One read; true when it made progress.
    bool read_once(Side& src, const Side& dst, Clock::time_point now, std::span<std::byte> scratch);
    /// One write of released bytes; true when it made progress.
    bool write_once(Side& dst, Clock::time_point now);
    void end_stream(StreamEnd end, Clock::time_point now);
    /// Queues bytes read, through the head rewriter while it has not decided.
    void queue(std::span<const std::byte> bytes, Clock::time_point now);
    /// Queues the head (rewritten when `rewrite`) and ends the rewriting.
    void release_head(std::optional<HeadRewrite> rewrite, Clock::time_point now);
    void deliver_end(Side& dst, Clock::time_point now);

    DirectionFault fault_;
    HeadRewriter rewriter_;        ///< empty once it has decided (or there is none)
    std::vector<std::byte> head_;  ///< the bytes the rewriter has not decided on yet
    ReleaseSchedule schedule_;
    DelayLine line_;
    TokenBucket bucket_;
    std::size_t buffer_limit_;
    DirectionCounters& counters_;
    StreamEnd end_ = StreamEnd::open;
    Clock::time_point end_release_{};
    bool end_delivered_ = false;
};

}  // namespace lockcheck::netproxy
