#include "spec/expectation.hpp"

#include <set>

namespace lockcheck {

ExpectationOutcome evaluate(const Expectation& expect, const CheckReport& report) {
    ExpectationOutcome out;
    std::set<std::string> kinds;
    for (const auto& c : report.checkers)
        for (const auto& v : c.violations) kinds.insert(v.kind);
    if (expect.valid && *expect.valid != std::string(to_string(report.valid)))
        out.mismatches.push_back("expected " + *expect.valid + ", got " + std::string(to_string(report.valid)) +
                                 (report.unknown_reason.empty() ? "" : " (" + report.unknown_reason + ")"));
    for (const auto& kind : expect.has)
        if (!kinds.count(kind)) out.mismatches.push_back("expected violations of kind " + kind + ", found none");
    for (const auto& kind : expect.lacks)
        if (kinds.count(kind)) out.mismatches.push_back("expected no violation of kind " + kind + ", found some");
    out.matched = out.mismatches.empty();
    return out;
}

nlohmann::json outcome_to_json(const ExpectationOutcome& outcome) {
    return {{"matched", outcome.matched}, {"mismatches", outcome.mismatches}};
}

}  // namespace lockcheck
