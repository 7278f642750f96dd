// What a checker returns: a verdict, the violations that prove it, and figures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

enum class Validity { Valid, Invalid, Unknown };

std::string_view to_string(Validity validity);
/// JSON form used in results.json: true, false or "unknown".
nlohmann::json validity_to_json(Validity validity);
/// Combines verdicts: any invalid makes invalid, else any unknown makes unknown.
Validity combine(Validity a, Validity b);

/// One finding. `ops` holds the history indices (Op::index) that prove it.
struct Violation {
    std::string kind;
    std::vector<std::int64_t> ops;
    std::string description;  ///< one sentence a person can read
    nlohmann::json details = nlohmann::json::object();
};

struct CheckerResult {
    std::string name;
    Validity valid = Validity::Valid;
    /// The violations kept as evidence: all of them, except for a checker
    /// whose findings can grow with the square of the history, which keeps a
    /// bounded selection (checkers/evidence_list.hpp) and counts the rest in
    /// `unlisted_violations`.
    std::vector<Violation> violations;
    std::size_t unlisted_violations = 0;
    /// Every violation found, listed or not.
    std::size_t violations_total() const { return violations.size() + unlisted_violations; }
    nlohmann::json stats = nlohmann::json::object();  ///< counts and figures, checker-specific
    /// False for a checker reported as a cross-check only: its verdict is kept
    /// in the results but not combined into the run's verdict.
    bool counts_toward_verdict = true;
    double seconds = 0;  ///< how long the checker took (run_checkers measures it; junit.xml reports it)
};

}  // namespace lockcheck
