// How a `lockcheck suite` reports its scenarios once they ran: the table's
// lines (one run each, or the detection rate of --repeat N), suite.json's
// entry of each scenario and junit.xml's test cases.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/suite/detection_rate.hpp"
#include "commands/suite/suite_selection.hpp"
#include "reports/junit_xml.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

/// One scenario's runs, as the suite judged them.
struct ScenarioRuns {
    std::vector<RepeatedRun> judged;
    nlohmann::json rows = nlohmann::json::array();  ///< suite.json's entry of each run
    std::string why;                                ///< the mismatches of the last run that did not meet it
    std::string failed_run_dirs;                    ///< one line per run that did not meet it
    std::string evidence;                           ///< findings of the last run, for junit
    std::filesystem::path last_run_dir;
    std::string last_verdict;
    double seconds = 0;
};

struct JudgedScenario;
struct ScenarioLines;

/// What differs between a suite that runs each scenario once and one that
/// repeats them (--repeat N above 1), decided once.
struct RepeatStyle {
    bool one_run = true;    ///< suite.json: the one run's fields are also the scenario's
    std::string runs_each;  ///< the first line: "" or ", N runs each"
    std::string header;     ///< the table's header line
    std::string every_run;  ///< the last line: "" or " in every run"
    ScenarioLines (*lines)(const JudgedScenario&) = nullptr;
};

/// The style of a suite that runs each scenario `repeat` times.
RepeatStyle repeat_style(int repeat);

/// What the suite reports once every scenario ran.
struct SuiteReport {
    JUnitSuite junit{"lockcheck-suite", 0, {}};
    nlohmann::json rows = nlohmann::json::array();  ///< suite.json's "scenarios"
    std::vector<std::string> table;
    int failed = 0;
};

/// The report of `specs` (the selection's, in its order) once `all_runs[i]` ran
/// specs[i]; a scenario interrupted before its first run is a skipped case.
SuiteReport report_scenarios(const std::vector<Spec>& specs, const Selection& selection,
                             const std::vector<ScenarioRuns>& all_runs, const RepeatStyle& style);

}  // namespace lockcheck
