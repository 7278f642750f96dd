#include "core/string_view_interner.hpp"

#include <functional>
#include <limits>
#include <stdexcept>

namespace lockcheck {

namespace {

constexpr std::size_t kInitialSlots = 64;

std::size_t hash_of(std::string_view text) { return std::hash<std::string_view>{}(text); }

}  // namespace

std::size_t StringViewInterner::slot_of(std::string_view text, std::size_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::int32_t id = slots_[slot];
        if (id == kEmptySlot || names_[static_cast<std::size_t>(id)] == text) return slot;
    }
}

void StringViewInterner::grow() {
    const std::size_t size = slots_.empty() ? kInitialSlots : slots_.size() * 2;
    std::vector<std::int32_t>().swap(slots_);  // freed first: the ids are placed again from the names
    slots_.assign(size, kEmptySlot);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t id = 0; id < names_.size(); ++id) {
        std::size_t slot = hash_of(names_[id]) & mask;
        while (slots_[slot] != kEmptySlot) slot = (slot + 1) & mask;
        slots_[slot] = static_cast<std::int32_t>(id);
    }
}

std::int32_t StringViewInterner::intern(std::string_view text) {
    if (2 * (names_.size() + 1) > slots_.size()) grow();
    const std::size_t slot = slot_of(text, hash_of(text));
    if (slots_[slot] != kEmptySlot) return slots_[slot];
    if (names_.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw std::length_error("StringViewInterner: more distinct strings than 32-bit ids");
    const auto id = static_cast<std::int32_t>(names_.size());
    names_.push_back(text);
    slots_[slot] = id;
    return id;
}

std::vector<std::string_view> StringViewInterner::take_names() {
    std::vector<std::string_view> names = std::move(names_);
    names_.clear();
    slots_.clear();
    return names;
}

}  // namespace lockcheck
