// The checkers this build knows (checkers/checker_descriptor.hpp), in the
// order they run and are reported.
#pragma once

#include <string_view>
#include <vector>

#include "checkers/checker_descriptor.hpp"

namespace lockcheck {

const std::vector<const CheckerDescriptor*>& checker_descriptors();

/// nullptr when no checker has that name.
const CheckerDescriptor* find_checker_descriptor(std::string_view name);

}  // namespace lockcheck
