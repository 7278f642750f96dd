#include "core/string_interner.hpp"

#include <functional>
#include <limits>
#include <stdexcept>

namespace lockcheck {

namespace {

constexpr std::size_t kInitialSlots = 64;

}  // namespace

std::size_t StringInterner::slot_of(std::string_view text, std::size_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::int32_t id = slots_[slot];
        if (id == kEmptySlot) return slot;
        const auto i = static_cast<std::size_t>(id);
        if (hashes_[i] == hash && names_[i] == text) return slot;
    }
}

void StringInterner::grow() {
    std::vector<std::int32_t> old = std::move(slots_);
    slots_.assign(old.empty() ? kInitialSlots : old.size() * 2, kEmptySlot);
    const std::size_t mask = slots_.size() - 1;
    for (const std::int32_t id : old) {
        if (id == kEmptySlot) continue;
        std::size_t slot = hashes_[static_cast<std::size_t>(id)] & mask;
        while (slots_[slot] != kEmptySlot) slot = (slot + 1) & mask;
        slots_[slot] = id;
    }
}

std::int32_t StringInterner::intern(std::string_view text) {
    if (2 * (names_.size() + 1) > slots_.size()) grow();
    const std::size_t hash = std::hash<std::string_view>{}(text);
    const std::size_t slot = slot_of(text, hash);
    if (slots_[slot] != kEmptySlot) return slots_[slot];
    if (names_.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw std::length_error("StringInterner: more distinct strings than 32-bit ids");
    const auto id = static_cast<std::int32_t>(names_.size());
    names_.emplace_back(text);
    hashes_.push_back(hash);
    slots_[slot] = id;
    return id;
}

std::vector<std::string> StringInterner::take_names() {
    std::vector<std::string> names = std::move(names_);
    names_.clear();
    hashes_.clear();
    slots_.clear();
    return names;
}

}  // namespace lockcheck
