// Looking up a descriptor (topology, recipe, fault, option) by its name.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace lockcheck {

/// The element of `all` whose member `name` equals `name`, or nullptr.
template <typename Named>
const Named* find_by_name(const std::vector<Named>& all, const std::string& name) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const Named& n) { return n.name == name; });
    return it == all.end() ? nullptr : &*it;
}

}  // namespace lockcheck
