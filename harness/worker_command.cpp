#include "harness/worker_command.hpp"

#include <fmt/format.h>

namespace lockcheck {

ChildSpec worker_child_spec(const Spec& spec, const std::vector<std::string>& endpoints,
                            const std::filesystem::path& self_exe, const std::filesystem::path& run_dir,
                            const std::string& run_id, int process) {
    std::string joined;
    for (const auto& e : endpoints) joined += (joined.empty() ? "" : ",") + e;
    ChildSpec child;
    child.argv = {self_exe.string(), "worker",   "--recipe", spec.recipe, "--endpoints", joined,
                  "--server-timeout-ms", std::to_string(spec.server_timeout_ms), "--run-id", run_id,
                  "--process", std::to_string(process)};
    child.output_log = run_dir / "workers" / fmt::format("worker-{}.log", process);
    child.pipe_stdio = true;
    return child;
}

}  // namespace lockcheck
