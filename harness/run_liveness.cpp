#include "harness/run_liveness.hpp"

#include <stdexcept>

#include "clusters/state_directory.hpp"

namespace lockcheck {

std::filesystem::path run_lock_path(const std::string& run_id) {
    return private_directory(state_directory() / "runs") / (run_id + ".lock");
}

FileLock hold_run_alive(const std::string& run_id) {
    auto lock = FileLock::try_lock(run_lock_path(run_id));
    if (!lock) throw std::runtime_error("run id " + run_id + " is already in use by a live run");
    return std::move(*lock);
}

std::optional<FileLock> lock_if_dead(const std::string& run_id) { return FileLock::try_lock(run_lock_path(run_id)); }

}  // namespace lockcheck
