// Whether a run reached the verdict its scenario expects (Spec::expect).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

struct ExpectationOutcome {
    bool matched = true;
    std::vector<std::string> mismatches;  ///< one sentence each
};

ExpectationOutcome evaluate(const Expectation& expect, const CheckReport& report);
nlohmann::json outcome_to_json(const ExpectationOutcome& outcome);

}  // namespace lockcheck
