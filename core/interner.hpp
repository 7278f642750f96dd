// Dense small ids for texts the caller keeps alive: the first distinct text
// interned gets 0, the next 1, and so on. Each text is remembered by a
// *handle* from which `TextOf` gets it back (a std::string_view is its own
// handle; the lock model's owners are history positions, 4 bytes instead of
// a 16-byte view, since a big history has millions of them:
// docs/benchmarks.md). Nothing is copied: the texts must outlive the
// interner and every handle it hands out. One flat open-addressing table of
// ids (no node per text) and the handles by id, nothing else: a hash is
// computed again when the table grows rather than kept per text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace lockcheck {

/// `TextOf` maps a Handle to the std::string_view of its text; equal texts
/// get the same id, whatever their handles.
template <class Handle, class TextOf>
class Interner {
public:
    explicit Interner(TextOf text_of = TextOf()) : text_of_(std::move(text_of)) {}

    /// Room for `count` distinct texts in the list of handles, so it is
    /// allocated once; only the part that is filled is ever touched.
    void reserve(std::size_t count) { handles_.reserve(count); }

    /// The id of the text of `handle`; a text not seen before gets the next
    /// id, and `handle` is kept for it.
    std::int32_t intern(Handle handle) {
        if (2 * (handles_.size() + 1) > slots_.size()) grow();
        const std::string_view text = text_of_(handle);
        const std::size_t slot = slot_of(text, hash_of(text));
        if (slots_[slot] != kEmptySlot) return slots_[slot];
        if (handles_.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
            throw std::length_error("Interner: more distinct texts than 32-bit ids");
        const auto id = static_cast<std::int32_t>(handles_.size());
        handles_.push_back(std::move(handle));
        slots_[slot] = id;
        return id;
    }

    /// The handles of the interned texts, by id (the first handle of each text).
    const std::vector<Handle>& handles() const { return handles_; }
    std::size_t size() const { return handles_.size(); }
    /// Hands the handles over (by id) and frees the table; the interner is empty afterwards.
    std::vector<Handle> take_handles() {
        std::vector<Handle> handles = std::move(handles_);
        handles_.clear();
        std::vector<std::int32_t>().swap(slots_);
        return handles;
    }

private:
    static constexpr std::int32_t kEmptySlot = -1;
    static constexpr std::size_t kInitialSlots = 64;

    static std::size_t hash_of(std::string_view text) { return std::hash<std::string_view>{}(text); }

    /// The slot holding `text`'s id, or the empty slot where it would go.
    std::size_t slot_of(std::string_view text, std::size_t hash) const {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
            const std::int32_t id = slots_[slot];
            if (id == kEmptySlot || text_of_(handles_[static_cast<std::size_t>(id)]) == text) return slot;
        }
    }

    void grow() {
        const std::size_t size = slots_.empty() ? kInitialSlots : slots_.size() * 2;
        std::vector<std::int32_t>().swap(slots_);  // freed first: the ids are placed again from the handles
        slots_.assign(size, kEmptySlot);
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t id = 0; id < handles_.size(); ++id) {
            std::size_t slot = hash_of(text_of_(handles_[id])) & mask;
            while (slots_[slot] != kEmptySlot) slot = (slot + 1) & mask;
            slots_[slot] = static_cast<std::int32_t>(id);
        }
    }

    TextOf text_of_;
    std::vector<Handle> handles_;
    std::vector<std::int32_t> slots_;  ///< id or kEmptySlot; a power of two long, at most half full
};

/// A std::string_view is its own handle.
struct ViewIsItsText {
    std::string_view operator()(std::string_view view) const { return view; }
};
/// Interns views: the texts' characters must outlive it and every view it hands out.
using StringViewInterner = Interner<std::string_view, ViewIsItsText>;

}  // namespace lockcheck
