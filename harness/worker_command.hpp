// How a run starts each worker process.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "clusters/child_process.hpp"
#include "harness/spec.hpp"

namespace lockcheck {

/// The child spec of worker `process`: this binary's `worker` subcommand for
/// the spec's recipe, connected to `endpoints`, its stderr in
/// RUN_DIR/workers/worker-<process>.log.
ChildSpec worker_child_spec(const Spec& spec, const std::vector<std::string>& endpoints,
                            const std::filesystem::path& self_exe, const std::filesystem::path& run_dir,
                            const std::string& run_id, int process);

}  // namespace lockcheck
