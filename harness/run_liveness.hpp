// Which runs are alive: every run holds a FileLock on STATE_DIR/runs/<id>.lock
// from before it creates anything until it has removed everything. A run id
// whose lock can be taken belongs to a run that is gone.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "clusters/file_lock.hpp"

namespace lockcheck {

/// STATE_DIR/runs/<run_id>.lock
std::filesystem::path run_lock_path(const std::string& run_id);

/// Marks the run alive for as long as the returned lock lives. Throws
/// std::runtime_error if the lock cannot be taken (a run with this id is alive).
FileLock hold_run_alive(const std::string& run_id);

/// Takes the lock of a run that is gone; nullopt while the run is alive.
std::optional<FileLock> lock_if_dead(const std::string& run_id);

}  // namespace lockcheck
