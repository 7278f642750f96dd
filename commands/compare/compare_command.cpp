#include "commands/compare/compare_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "core/atomic_file.hpp"
#include "commands/compare/compare_grid.hpp"
#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "reports/compare_html.hpp"
#include "reports/compare_metrics.hpp"

namespace lockcheck {

namespace {

/// The seeds every cell runs with: the flag's, else the spec's, else a random one, and the next runs - 1.
std::vector<std::uint64_t> grid_seeds(const CompareOptions& compare, const Spec& base) {
    const std::uint64_t first_seed = compare.seed ? *compare.seed
                                     : base.seed
                                         ? *base.seed
                                         : (std::random_device{}() | (std::uint64_t{std::random_device{}()} << 32));
    std::vector<std::uint64_t> seeds;
    for (int i = 0; i < compare.runs; ++i) seeds.push_back(first_seed + static_cast<std::uint64_t>(i));
    return seeds;
}

/// Runs every cell with every seed (each run in a store of its own); `failed`
/// counts the runs that ended in a harness error.
std::vector<CellSummary> run_grid(const std::vector<GridCell>& cells, const std::vector<std::uint64_t>& seeds,
                                  const std::filesystem::path& dir, const RunOptions& options, int& failed) {
    std::vector<CellSummary> summaries;
    for (std::size_t c = 0; c < cells.size() && !options.interrupted.stop_requested(); ++c) {
        std::vector<RunMetrics> runs;
        for (std::size_t r = 0; r < seeds.size() && !options.interrupted.stop_requested(); ++r) {
            Spec spec = cells[c].spec;
            spec.seed = seeds[r];
            spec.expect.reset();  // a grid measures; it does not judge
            std::printf("\n== cell %zu/%zu [%s] run %zu/%zu\n", c + 1, cells.size(), cells[c].label().c_str(), r + 1,
                        seeds.size());
            std::fflush(stdout);
            RunOptions run_options = options;
            run_options.store = dir / "cells" / fmt::format("{:02}", c) / fmt::format("run-{}", r);
            const RunOutcome run = run_spec(spec, run_options);
            runs.push_back(metrics_from_results(written_results(run.results), run.run_dir, dir));
            failed += runs.back().verdict == "error" ? 1 : 0;
        }
        summaries.push_back(summarize_cell(cells[c].label(), runs));
    }
    return summaries;
}

/// Prints the table of cells and returns compare.json's "cells".
nlohmann::json print_cells(const std::vector<GridCell>& cells, const std::vector<CellSummary>& summaries) {
    int width = 4;
    for (const auto& s : summaries) width = std::max(width, static_cast<int>(s.label.size()));
    std::printf("\n%-*s %8s %10s %8s %8s %8s %9s\n", width, "cell", "invalid", "viol/run", "in-lease", "expired",
                "lost-upd", "acq-ok");
    nlohmann::json cells_json = nlohmann::json::array();
    for (std::size_t c = 0; c < summaries.size(); ++c) {
        const auto& s = summaries[c];
        std::printf("%-*s %5d/%-2zu %10.2f %8.2f %8.2f %8.2f %8.1f%%%s\n", width, s.label.c_str(), s.invalid_runs,
                    s.runs.size(), s.violations_per_run, s.within_lease_per_run, s.lease_expired_per_run,
                    s.lost_updates_per_run, 100 * s.acquire_success_rate,
                    s.failed_runs ? fmt::format("  ({} failed)", s.failed_runs).c_str() : "");
        auto j = cell_to_json(s);
        nlohmann::json settings = nlohmann::json::object();
        for (const auto& [field, value] : cells[c].settings) settings[field] = value;
        j["settings"] = settings;
        cells_json.push_back(j);
    }
    return cells_json;
}

}  // namespace

int compare_command(const CompareOptions& compare, const RunOptions& options) {
    Spec base = read_spec(compare.spec_path);
    if (compare.time_limit) base.time_limit_s = *compare.time_limit;
    std::vector<Vary> varies;
    for (const auto& option : compare.varies) varies.push_back(parse_vary(option));
    check_grid_size(varies, compare.runs);
    const auto cells = expand_grid(base, varies);
    const std::vector<std::uint64_t> seeds = grid_seeds(compare, base);

    const RunDirectory dir = create_run_directory(options.store / "compare", "");
    std::printf("lockcheck compare %s: %zu cells x %d runs (seeds %llu..%llu) | %s\n", base.name.c_str(), cells.size(),
                compare.runs, static_cast<unsigned long long>(seeds.front()),
                static_cast<unsigned long long>(seeds.back()), dir.path.c_str());
    int failed = 0;
    const auto summaries = run_grid(cells, seeds, dir.path, options, failed);
    const nlohmann::json cells_json = print_cells(cells, summaries);
    nlohmann::json vary_json = nlohmann::json::array();
    for (const auto& v : varies) vary_json.push_back({{"field", v.field}, {"values", v.values}});
    const nlohmann::json out{{"spec", compare.spec_path.string()},
                             {"spec_name", base.name},
                             {"varies", vary_json},
                             {"runs", compare.runs},
                             {"seeds", seeds},
                             {"cells", cells_json}};
    write_json_file(dir.path / "compare.json", out);
    write_text_file(dir.path / "compare.html", render_compare_html(out));
    std::printf("compare.json and compare.html in %s\n", dir.path.c_str());
    if (options.interrupted.stop_requested()) return exit_code::kHarnessError;
    return failed > 0 ? exit_code::kHarnessError : exit_code::kValid;
}

}  // namespace lockcheck
