// The owners of one key's lock ops, by id (checkers/lock_ops.hpp). Each is
// remembered by the history position of an op that names it: 4 bytes an
// owner instead of a 16-byte view, since a big history has one owner per
// acquire (≈ 5M in 10M ops, docs/benchmarks.md). The name itself is read
// from the history when asked for, so the history must outlive the table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/history.hpp"

namespace lockcheck {

/// The owner an op names: its `owner`, else "process N" for its process N
/// (a view into the process-wide symbol table, which lives as long as the
/// process: there are as many such names as workers).
std::string_view owner_named_by(const Op& op);

class OwnerNames {
public:
    OwnerNames() = default;
    /// Owner id -> the position in `history` of an op whose owner_named_by() is the name.
    OwnerNames(const History& history, std::vector<std::uint32_t> positions)
        : history_(&history), positions_(std::move(positions)) {}

    /// The name of owner `id`: a view into the history's op (or the symbol table).
    std::string_view operator[](std::size_t id) const { return owner_named_by((*history_)[positions_[id]]); }
    std::size_t size() const { return positions_.size(); }
    /// Room held for positions (the lock model reserves it once, from a count).
    std::size_t capacity() const { return positions_.capacity(); }

    /// The table of a subset of the same history's ops: `ids` of this table, in the new ids' order.
    OwnerNames subset(const std::vector<std::int32_t>& ids) const;

private:
    const History* history_ = nullptr;
    std::vector<std::uint32_t> positions_;
};

}  // namespace lockcheck
