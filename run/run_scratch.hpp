// A run's scratch directory, RUN_DIR/scratch: bulky data that is no evidence
// (etcd's data dirs, ≈ 123 MB of preallocated WAL per member). The run removes
// it when it ends; a run killed with SIGKILL cannot, so the run also leaves a
// symbolic link to it, STATE_DIR/runs/<id>.scratch, by which `lockcheck clean`
// finds and removes it once the run is dead.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lockcheck {

class RunScratch {
public:
    /// Creates `run_dir`/scratch and the link to it. Throws
    /// std::runtime_error naming what could not be made.
    RunScratch(const std::filesystem::path& run_dir, const std::string& run_id);
    /// Removes the directory with everything in it, then the link. Never throws.
    ~RunScratch();
    RunScratch(const RunScratch&) = delete;
    RunScratch& operator=(const RunScratch&) = delete;

    const std::filesystem::path& dir() const { return dir_; }

private:
    std::filesystem::path dir_;
    std::filesystem::path link_;
};

/// STATE_DIR/runs/<run_id>.scratch
std::filesystem::path run_scratch_link(const std::string& run_id);

/// Removes the scratch directory the link of a dead run names (only a
/// directory named "scratch" in a run directory named "...-<run_id>"), then
/// the link. Never throws. Returns what was removed.
std::vector<std::string> remove_run_scratch(const std::string& run_id) noexcept;

}  // namespace lockcheck
