#include "reports/compare_metrics.hpp"

#include <string_view>

#include "checkers/checker_names.hpp"
#include "core/json_path.hpp"

namespace lockcheck {
namespace {

/// The integer at `path` inside the stats of `checker` (0 when absent or no integer).
std::int64_t stat_of(const RecordedResults& results, std::string_view checker,
                     std::initializer_list<std::string_view> path) {
    const CheckerResult* c = results.checker(checker);
    const nlohmann::json* at = c ? json_at(c->stats, path) : nullptr;
    return at && at->is_number() ? at->get<std::int64_t>() : 0;
}

}  // namespace

RunMetrics metrics_from_results(const std::optional<RecordedResults>& results, const std::filesystem::path& run_dir,
                                const std::filesystem::path& compare_dir) {
    RunMetrics m;
    std::error_code error;
    if (!run_dir.empty())
        m.run_dir =
            (compare_dir.empty() ? run_dir : std::filesystem::relative(run_dir, compare_dir, error)).generic_string();
    if (!results) return m;
    m.verdict = std::string(to_string(results->report.valid));
    m.violations = results->counted_violations_total();
    m.within_lease = stat_of(*results, checker_name::kMutualExclusion, {"within_lease"});
    m.lease_expired = stat_of(*results, checker_name::kMutualExclusion, {"lease_expired"});
    m.lost_updates = stat_of(*results, checker_name::kResource, {"lost_updates"});
    const auto attempts = stat_of(*results, checker_name::kLiveness, {"acquires", "attempts"});
    const auto granted = stat_of(*results, checker_name::kLiveness, {"acquires", "ok"});
    m.acquire_success_rate = attempts > 0 ? static_cast<double>(granted) / static_cast<double>(attempts) : 0;
    return m;
}

CellSummary summarize_cell(const std::string& label, const std::vector<RunMetrics>& runs) {
    CellSummary cell{label, runs};
    int counted = 0;
    for (const auto& r : runs) {
        if (r.verdict == "error") {
            ++cell.failed_runs;
            continue;
        }
        ++counted;
        cell.invalid_runs += r.verdict == "invalid" ? 1 : 0;
        cell.violations_per_run += static_cast<double>(r.violations);
        cell.within_lease_per_run += static_cast<double>(r.within_lease);
        cell.lease_expired_per_run += static_cast<double>(r.lease_expired);
        cell.lost_updates_per_run += static_cast<double>(r.lost_updates);
        cell.acquire_success_rate += r.acquire_success_rate;
    }
    if (counted > 0)
        for (double* mean : {&cell.violations_per_run, &cell.within_lease_per_run, &cell.lease_expired_per_run,
                             &cell.lost_updates_per_run, &cell.acquire_success_rate})
            *mean /= counted;
    return cell;
}

nlohmann::json cell_to_json(const CellSummary& cell) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& r : cell.runs)
        runs.push_back({{"verdict", r.verdict},
                        {"violations", r.violations},
                        {"within_lease", r.within_lease},
                        {"lease_expired", r.lease_expired},
                        {"lost_updates", r.lost_updates},
                        {"acquire_success_rate", r.acquire_success_rate},
                        {"run_dir", r.run_dir}});
    return {{"label", cell.label},
            {"runs", runs},
            {"invalid_runs", cell.invalid_runs},
            {"failed_runs", cell.failed_runs},
            {"violations_per_run", cell.violations_per_run},
            {"within_lease_per_run", cell.within_lease_per_run},
            {"lease_expired_per_run", cell.lease_expired_per_run},
            {"lost_updates_per_run", cell.lost_updates_per_run},
            {"acquire_success_rate", cell.acquire_success_rate}};
}

}  // namespace lockcheck
