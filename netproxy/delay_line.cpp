#include "netproxy/delay_line.hpp"

#include <stdexcept>

namespace lockcheck::netproxy {

void DelayLine::push(std::span<const std::byte> bytes, Clock::time_point release) {
    if (bytes.empty()) return;
    if (!chunks_.empty() && release < chunks_.back().release)
        throw std::logic_error("DelayLine::push: release time before the tail's");
    if (!chunks_.empty() && chunks_.back().release == release &&
        chunks_.back().bytes.size() + bytes.size() <= kMergeLimit) {
        auto& tail = chunks_.back().bytes;
        tail.insert(tail.end(), bytes.begin(), bytes.end());
    } else {
        chunks_.push_back(Chunk{{bytes.begin(), bytes.end()}, 0, release});
    }
    size_ += bytes.size();
}

std::span<const std::byte> DelayLine::released_front(Clock::time_point now) const {
    if (chunks_.empty() || chunks_.front().release > now) return {};
    const Chunk& head = chunks_.front();
    return std::span<const std::byte>(head.bytes).subspan(head.written);
}

void DelayLine::consume(std::size_t count) {
    if (chunks_.empty() || count > chunks_.front().bytes.size() - chunks_.front().written)
        throw std::logic_error("DelayLine::consume: more than the head chunk holds");
    Chunk& head = chunks_.front();
    head.written += count;
    size_ -= count;
    if (head.written == head.bytes.size()) chunks_.pop_front();
}

std::optional<Clock::time_point> DelayLine::next_release() const {
    if (chunks_.empty()) return std::nullopt;
    return chunks_.front().release;
}

std::size_t DelayLine::clear() {
    const std::size_t dropped = size_;
    chunks_.clear();
    size_ = 0;
    return dropped;
}

}  // namespace lockcheck::netproxy
