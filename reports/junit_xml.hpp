// junit.xml for CI: the JUnit XML that Jenkins, GitLab and GitHub Actions
// test reporters read. A run gives one testcase per checker; a suite gives one
// testcase per scenario (whether its verdict matched its expectation).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"

namespace lockcheck {

/// The name of the testcase that carries the run's own unknown reason.
inline constexpr std::string_view kVerdictCase = "verdict";

struct JUnitCase {
    std::string name;
    std::string classname;
    double seconds = 0;
    std::optional<std::string> failure;  ///< the failure's one-line message; nullopt: passed
    std::string failure_type;            ///< e.g. "invalid", "unknown", "expectation"
    std::string details;                 ///< the failure's body (violation summaries), or system-out when passed
    /// Why it was not run (a <skipped> element, counted in skipped=); nullopt: it ran. Not with a failure.
    std::optional<std::string> skipped = std::nullopt;
};

struct JUnitSuite {
    std::string name;
    double seconds = 0;
    std::vector<JUnitCase> cases;
    /// The suite's <properties> (name, value), in order; none: no element.
    std::vector<std::pair<std::string, std::string>> properties = {};
};

/// The document: <testsuites> with one <testsuite> per entry, counts filled in
/// (a skipped case counts as skipped, never as passed).
std::string junit_xml(const std::vector<JUnitSuite>& suites);

/// One testcase per checker of `report`, named after the checker, classname
/// "lockcheck.<suite_name>", timed by the checker's own run time. A checker
/// that counts toward the verdict fails when invalid or unknown; its failure
/// lists up to `max_listed` violations. An advisory checker never fails; its
/// findings go to system-out. A verdict that is unknown for a reason of the
/// whole run (CheckReport::unknown_reason: e.g. no acquire was granted) adds
/// a last testcase kVerdictCase that fails with type "unknown" and message
/// "unknown: <reason>".
JUnitSuite junit_for_report(const std::string& suite_name, const CheckReport& report, double seconds,
                            std::size_t max_listed = 20);

/// The junit.xml of one run directory. `results` is results.json (its
/// "run.seconds" times the suite; its "run.client", "run.seed" and
/// "run.run_id" become the suite's properties), `spec` the resolved spec. When the
/// scenario has an expectation (results' "expectation"), the expectation is
/// the test: a first testcase "expectation", timed by the whole run, that
/// passes when it was met, with the violations as evidence in system-out,
/// and fails when it was not; the checkers' testcases then only report
/// (their findings in system-out). Without an expectation, or with one that
/// does not apply ("applies": false: `--nemesis` replaced the faults it was
/// stated for): junit_for_report. With an expectation, the kVerdictCase
/// testcase only reports why the verdict is unknown (system-out): the
/// expectation's testcase says whether that was expected.
JUnitSuite junit_for_run(const std::string& suite_name, const CheckReport& report, const nlohmann::json& results,
                         const nlohmann::json& spec, std::size_t max_listed = 20);

}  // namespace lockcheck
