// Which runs are alive: every run holds a FileLock on STATE_DIR/runs/<id>.lock
// from before it creates anything until it has removed everything. A run id
// whose lock can be taken belongs to a run that is gone.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "host/file_lock.hpp"

namespace lockcheck {

/// STATE_DIR/runs/<run_id>.lock
std::filesystem::path run_lock_path(const std::string& run_id);

/// Marks a run alive for as long as it lives. A run that ends removes its
/// lock file while it still holds the lock, so it leaves nothing for `clean`
/// to report; only a run that died leaves one (unlocked).
class RunAliveLock {
public:
    /// Throws std::runtime_error if the lock cannot be taken (a run with this
    /// id is alive).
    explicit RunAliveLock(const std::string& run_id);
    /// Removes the lock file, then drops the lock.
    ~RunAliveLock();
    RunAliveLock(const RunAliveLock&) = delete;
    RunAliveLock& operator=(const RunAliveLock&) = delete;

private:
    std::filesystem::path path_;
    FileLock lock_;
};

/// Takes the lock of a run that is gone; nullopt while the run is alive.
std::optional<FileLock> lock_if_dead(const std::string& run_id);

}  // namespace lockcheck
