#include "commands/shrink/shrink_input.hpp"

#include <fmt/format.h>

#include "checkers/first_violation.hpp"
#include "core/history_io.hpp"
#include "nemesis/schedule_json.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {
namespace {

[[noreturn]] void refuse(const std::filesystem::path& dir, const std::string& why) {
    throw SpecError(fmt::format("shrink: {} {}", dir.string(), why));
}

bool is_file(const std::filesystem::path& path) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

/// Ids of the faults started (a start-fault info without error) before `seconds`.
std::set<int> started_before(const History& history, double seconds) {
    std::set<int> ids;
    for (const auto& op : history)
        if (op.is_nemesis() && op.f == fn::kStartFault && !op.is_invoke() && !op.error &&
            static_cast<double>(op.time) / 1e9 < seconds && op.value.is_object() && op.value.contains("id") &&
            op.value["id"].is_number_integer())
            ids.insert(op.value["id"].get<int>());
    return ids;
}

/// The violation kinds results.json lists for the run in `dir`, which must have failed.
std::set<std::string> violation_kinds_of_failed_run(const std::filesystem::path& dir) {
    const auto json = read_json_or_null(dir / "results.json");
    if (!json.is_object())
        refuse(dir, "has no readable results.json (the run was not checked; `lockcheck check` checks it)");
    RecordedResults results;
    try {
        results = results_from_json(json, (dir / "results.json").string());
    } catch (const ResultsError& e) {
        throw SpecError(std::string("shrink: ") + e.what());  // names the file and the field
    }
    if (results.report.valid != Validity::Invalid)
        refuse(dir, fmt::format("did not fail (its verdict is {}): only a failing run shrinks",
                                validity_to_json(results.report.valid).dump()));
    return results.violation_kinds();
}

}  // namespace

std::string kind_to_keep(const std::set<std::string>& kinds, const std::vector<std::string>& expected) {
    for (const auto& kind : expected)
        if (kinds.count(kind)) return kind;
    return *kinds.begin();
}

ShrinkInput read_shrink_input(const std::filesystem::path& given) {
    std::error_code ec;
    if (!std::filesystem::is_directory(given, ec)) refuse(given, "is not a directory (give a run directory)");
    ShrinkInput in;
    in.run_dir = std::filesystem::canonical(given, ec);
    if (ec) in.run_dir = std::filesystem::absolute(given);
    const auto& dir = in.run_dir;
    if (!is_file(dir / "spec.json")) refuse(dir, "is no run directory (no spec.json)");
    if (!is_file(dir / "history.jsonl")) refuse(dir, "has no history.jsonl: there is no run to shrink");
    const auto kinds = violation_kinds_of_failed_run(dir);
    if (kinds.empty()) refuse(dir, "lists no violation in results.json: nothing to keep failing with");
    in.spec = read_spec(dir / "spec.json");
    in.kind = kind_to_keep(kinds, in.spec.expect ? in.spec.expect->has : std::vector<std::string>{});
    if (in.spec.schedule) {
        in.schedule = *in.spec.schedule;
    } else {
        const auto recorded = read_json_or_null(dir / "nemesis-schedule.json");
        if (recorded.is_null()) refuse(dir, "has no nemesis-schedule.json: no fault schedule to shrink");
        try {
            in.schedule = schedule_from_json(recorded);
        } catch (const ScheduleFormError& e) {
            refuse(dir, std::string("has a nemesis-schedule.json that does not read: ") + e.what());
        }
    }
    History history;
    try {
        history = read_history(dir / "history.jsonl");
        if (const auto first = first_violation(history)) in.first_violation_seconds = first->seconds;
    } catch (const HistoryError& e) {
        refuse(dir, std::string("has a history.jsonl that does not read: ") + e.what());
    }
    in.started_before_violation = started_before(history, in.first_violation_seconds.value_or(1e18));
    return in;
}

}  // namespace lockcheck
