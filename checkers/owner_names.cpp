#include "checkers/owner_names.hpp"

#include <string>

#include "core/symbol.hpp"

namespace lockcheck {

std::string_view owner_named_by(const Op& op) {
    if (op.owner) return *op.owner;
    return Symbol("process " + std::to_string(op.process)).view();
}

OwnerNames OwnerNames::subset(const std::vector<std::int32_t>& ids) const {
    std::vector<std::uint32_t> positions;
    positions.reserve(ids.size());
    for (std::int32_t id : ids) positions.push_back(positions_[static_cast<std::size_t>(id)]);
    return OwnerNames(*history_, std::move(positions));
}

}  // namespace lockcheck
