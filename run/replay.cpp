#include "run/replay.hpp"

#include <cstdio>

#include "reports/results_json.hpp"

namespace lockcheck {

Spec replay_spec(const std::filesystem::path& run_dir) {
    const auto path = run_dir / "spec.json";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw SpecError("replay: " + run_dir.string() + " is not a run directory (no spec.json)");
    Spec spec = read_spec(path);
    if (!spec.seed) throw SpecError("replay: " + path.string() + " has no seed");
    const auto schedule = read_json_or_null(run_dir / "nemesis-schedule.json");
    std::printf("replaying %s: seed %llu, %zu scheduled faults\n", run_dir.c_str(),
                static_cast<unsigned long long>(*spec.seed), schedule.is_array() ? schedule.size() : std::size_t{0});
    return spec;
}

}  // namespace lockcheck
