// The run directory: STORE/<scenario>/<timestamp>/ and the STORE/latest link.
#pragma once

#include <filesystem>
#include <string>

namespace lockcheck {

struct RunDirectory {
    std::filesystem::path path;
    std::string run_id;  ///< short, unique per run; every name the run creates carries it
};

/// A fresh random run id (6 hex digits).
std::string new_run_id();

/// The history.jsonl a user means by PATH: PATH/history.jsonl for a run
/// directory, PATH itself otherwise.
std::filesystem::path history_file_of(const std::filesystem::path& run_dir_or_history);

/// Creates STORE/<scenario>/<UTC timestamp>/ (STORE/<UTC timestamp>/ for an
/// empty `scenario`) and points STORE/latest at it. Throws
/// std::invalid_argument for a scenario name that is not safe as a directory
/// (scenario_name_problem), std::runtime_error when the directory cannot be made.
RunDirectory create_run_directory(const std::filesystem::path& store, const std::string& scenario);

}  // namespace lockcheck
