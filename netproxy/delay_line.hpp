// The bytes of one direction that the proxy has read and not yet written,
// each chunk with the time it may be written. Release times never decrease
// from one chunk to the next (ReleaseSchedule), so the head is always the
// first to go and bytes leave in the order they came.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <span>
#include <vector>

#include "netproxy/release_schedule.hpp"

namespace lockcheck::netproxy {

class DelayLine {
public:
    /// Appends `bytes`, to be released at `release` (not before the tail's).
    void push(std::span<const std::byte> bytes, Clock::time_point release);

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    /// The head chunk's unwritten bytes if it is released at `now`, else empty.
    std::span<const std::byte> released_front(Clock::time_point now) const;
    /// Removes the first `count` bytes of released_front().
    void consume(std::size_t count);
    /// The head chunk's release time; nullopt when empty.
    std::optional<Clock::time_point> next_release() const;
    /// Drops every queued byte; returns how many.
    std::size_t clear();

private:
    struct Chunk {
        std::vector<std::byte> bytes;
        std::size_t written = 0;
        Clock::time_point release;
    };
    /// Chunks released at the same time are merged up to this size.
    static constexpr std::size_t kMergeLimit = 64 * 1024;
    std::deque<Chunk> chunks_;
    std::size_t size_ = 0;
};

}  // namespace lockcheck::netproxy
