// The scenarios a user can run by name or label: every *.json spec in a
// scenarios directory. `lockcheck list` and `lockcheck suite` read them.
//
// Where: ./scenarios when the current directory has one (a checkout, as
// ./run.sh and CI use it), else the scenarios/ of the source tree this binary
// was built from.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/spec.hpp"

namespace lockcheck {

struct ScenarioEntry {
    std::filesystem::path path;
    std::optional<Spec> spec;    ///< nullopt when the file is not a valid spec
    std::string error;           ///< why not, one line
};

/// ./scenarios if it is a directory, else <source dir>/scenarios.
std::filesystem::path default_scenarios_dir();

/// Every *.json in `dir`, sorted by file name, each parsed (not validated).
/// Throws SpecError when `dir` is not a readable directory.
std::vector<ScenarioEntry> load_scenarios(const std::filesystem::path& dir);

/// True when the spec carries `label`.
bool has_label(const Spec& spec, const std::string& label);

/// "scenarios (DIR):" and one line per scenario: file stem, labels, first sentence.
std::string scenario_list_text(const std::filesystem::path& dir);

/// The first sentence of a description, cut to `width` characters.
std::string one_line(const std::string& description, std::size_t width = 90);

}  // namespace lockcheck
