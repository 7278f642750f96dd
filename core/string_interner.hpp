// Dense small ids for strings: the first distinct string interned gets 0, the
// next 1, and so on. One flat open-addressing table of ids (no node per
// string), for the hundreds of thousands of distinct owners of a big history,
// where std::unordered_map spent more time than any checker (docs/benchmarks.md,
// "lockcheck check end to end").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck {

class StringInterner {
public:
    /// The id of `text`, interning a copy of it first if it is new.
    std::int32_t intern(std::string_view text);

    /// The interned strings, by id.
    const std::vector<std::string>& names() const { return names_; }
    std::size_t size() const { return names_.size(); }
    /// Hands the strings over (by id); the interner is empty afterwards.
    std::vector<std::string> take_names();

private:
    static constexpr std::int32_t kEmptySlot = -1;
    /// The slot holding `text`'s id, or the empty slot where it would go.
    std::size_t slot_of(std::string_view text, std::size_t hash) const;
    void grow();

    std::vector<std::string> names_;
    std::vector<std::size_t> hashes_;  ///< by id, so growing never hashes again
    std::vector<std::int32_t> slots_;  ///< id or kEmptySlot; a power of two long, at most half full
};

}  // namespace lockcheck
