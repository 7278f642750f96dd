#include "harness/collected_run.hpp"

#include <chrono>
#include <cstdio>

#include "harness/exit_codes.hpp"

namespace lockcheck {

CollectedRun run_and_collect(const Spec& spec, RunOptions options, const std::filesystem::path& store) {
    CollectedRun run;
    options.store = store;
    const auto start = std::chrono::steady_clock::now();
    try {
        run.exit_code = run_spec(spec, options);
    } catch (const SpecError& e) {
        std::fprintf(stderr, "lockcheck: error: %s\n", e.what());
        run.exit_code = exit_code::kBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lockcheck: error: %s\n", e.what());
        run.exit_code = exit_code::kHarnessError;
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::error_code ec;
    const auto latest = std::filesystem::canonical(store / "latest", ec);
    if (!ec) {
        run.run_dir = latest;
        run.results = read_json_or_null(latest / "results.json");
    }
    return run;
}

}  // namespace lockcheck
