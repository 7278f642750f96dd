// The scenarios a user can run by name or label: every *.json spec in a
// scenarios directory. `lockcheck list` and `lockcheck suite` read them.
//
// Where: the first scenario_search_dirs() entry that exists. `lockcheck run
// NAME` finds NAME.json there too, so it works from any directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "spec/spec.hpp"

namespace lockcheck {

struct ScenarioEntry {
    std::filesystem::path path;
    std::optional<Spec> spec;  ///< nullopt when the file is not a valid spec
    std::string error;         ///< why not, one line
};

/// Where scenarios are looked for, in order: ./scenarios (the current
/// directory is a checkout, as ./run.sh and CI use it); the scenarios/ beside
/// the directory of this binary (it is build/lockcheck in a checkout, so a
/// checkout's binary finds its scenarios from anywhere); the scenarios/ of an
/// installed package (/usr/bin/lockcheck: /usr/share/lockcheck/scenarios,
/// core/install_layout.hpp); the scenarios/ of the source tree it was built
/// from.
std::vector<std::filesystem::path> scenario_search_dirs();

/// The first scenario_search_dirs() entry that is a directory (the last
/// entry when none is).
std::filesystem::path default_scenarios_dir();

/// The spec file `name_or_path` means: an existing file as it is; otherwise
/// a scenario name (file stem, ".json" optional, no '/') found in the first
/// scenario_search_dirs() entry that holds it. Throws SpecError naming the
/// directories it searched.
std::filesystem::path find_scenario(const std::string& name_or_path);

/// Every *.json in `dir`, sorted by file name, each parsed (not validated).
/// Throws SpecError when `dir` is not a readable directory.
std::vector<ScenarioEntry> load_scenarios(const std::filesystem::path& dir);

/// True when the spec carries `label`.
bool has_label(const Spec& spec, const std::string& label);

/// "scenarios (DIR):" and one paragraph per scenario: file stem, labels, and
/// the first sentence of its description, wrapped (never cut).
std::string scenario_list_text(const std::filesystem::path& dir);

/// The first sentence of a description (up to the first ". "), whole.
std::string first_sentence(const std::string& description);

}  // namespace lockcheck
