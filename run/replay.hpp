// `lockcheck run --replay RUN_DIR`: the stored spec.json of a run, with its
// seed, to run again. The seed fixes the fault schedule (nemesis/schedule.hpp)
// and the workload's random choices, so the replay injects the same faults at
// the same times; what servers and the scheduler do in between may differ.
#pragma once

#include <filesystem>

#include "spec/spec.hpp"

namespace lockcheck {

/// Reads RUN_DIR/spec.json; throws SpecError when it is missing, invalid or
/// has no seed. Prints one line naming the run, its seed and its faults.
Spec replay_spec(const std::filesystem::path& run_dir);

}  // namespace lockcheck
