// Which scenarios a `lockcheck suite` runs: the selector (a spec file, a
// directory, a label or nothing) resolved to spec files, the shard of them
// this suite runs, and their specs, each validated before anything runs.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "commands/suite/suite_shard.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

/// The spec files a suite runs, and the words that name them ("label nightly").
struct Selection {
    std::string description;
    std::vector<std::filesystem::path> files;
};

/// `selector`: empty (every scenario of default_scenarios_dir()), a directory
/// (its scenarios), a spec file, or a label. Throws SpecError when it selects
/// nothing, naming the labels there are.
Selection select_scenarios(const std::string& selector);

/// The scenarios of `shard` among those selected, its number in the description.
Selection slice(Selection selection, SuiteShard shard);

/// The specs of the selection, each validated before anything runs (a refusal
/// names its file), and which of them run alone (kAloneLabel).
std::pair<std::vector<Spec>, std::vector<bool>> read_selected_specs(const Selection& selection);

}  // namespace lockcheck
