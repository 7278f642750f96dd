// Shared by the spec tests: the one-line error a spec object gets.
#pragma once

#include <string>

#include "spec/spec.hpp"

namespace lockcheck::testing {

/// The SpecError message of parsing and validating `spec` (named "t.json"),
/// or "" when it is accepted.
inline std::string spec_error_of(const nlohmann::json& spec) {
    try {
        validate(spec_from_json(spec, "t.json"));
    } catch (const SpecError& e) {
        return e.what();
    }
    return "";
}

}  // namespace lockcheck::testing
