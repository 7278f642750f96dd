// Dense small ids for strings the caller keeps alive: the first distinct
// string interned gets 0, the next 1, and so on. It holds views, not copies:
// the lock model interns the owner of every acquire of a history (millions
// in a big one, docs/benchmarks.md), and the owners already live in the
// history's ops for as long as the model does. One flat open-addressing
// table of ids (no node per string) and the views by id, nothing else: a
// hash is computed again when the table grows rather than kept per string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lockcheck {

class StringViewInterner {
public:
    /// Room for `count` distinct strings in the list of views, so it is
    /// allocated once; only the part that is filled is ever touched.
    void reserve(std::size_t count) { names_.reserve(count); }

    /// The id of `text`; a text not seen before gets the next id. Only the
    /// view is kept: its characters must outlive the interner and every
    /// view names() or take_names() hands out.
    std::int32_t intern(std::string_view text);

    /// The interned strings, by id.
    const std::vector<std::string_view>& names() const { return names_; }
    std::size_t size() const { return names_.size(); }
    /// Hands the views over (by id); the interner is empty afterwards.
    std::vector<std::string_view> take_names();

private:
    static constexpr std::int32_t kEmptySlot = -1;
    /// The slot holding `text`'s id, or the empty slot where it would go.
    std::size_t slot_of(std::string_view text, std::size_t hash) const;
    void grow();

    std::vector<std::string_view> names_;
    std::vector<std::int32_t> slots_;  ///< id or kEmptySlot; a power of two long, at most half full
};

}  // namespace lockcheck
