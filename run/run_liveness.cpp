#include "run/run_liveness.hpp"

#include <stdexcept>

#include "host/state_directory.hpp"

namespace lockcheck {
namespace {

FileLock take_or_throw(const std::filesystem::path& path, const std::string& run_id) {
    auto lock = FileLock::try_lock(path);
    if (!lock) throw std::runtime_error("run id " + run_id + " is already in use by a live run");
    return std::move(*lock);
}

}  // namespace

std::filesystem::path run_lock_path(const std::string& run_id) {
    return private_directory(state_directory() / "runs") / (run_id + ".lock");
}

RunAliveLock::RunAliveLock(const std::string& run_id)
    : path_(run_lock_path(run_id)), lock_(take_or_throw(path_, run_id)) {}

RunAliveLock::~RunAliveLock() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);  // `clean` taking the lock of a file we unlinked removes nothing of ours
}

std::optional<FileLock> lock_if_dead(const std::string& run_id) { return FileLock::try_lock(run_lock_path(run_id)); }

}  // namespace lockcheck
