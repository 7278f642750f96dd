#include "commands/certify/certify_evidence.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "checkers/danger_counts.hpp"

namespace lockcheck {

int evidence_needed(const CertifyCell& cell, std::optional<int> override) {
    if (cell.evidence.counts.empty()) return 0;
    return override.value_or(cell.evidence.needed);
}

std::int64_t danger_seen(const CertifyCell& cell, const nlohmann::json& results) {
    if (!results.is_object()) return 0;
    const auto exercised = results.find("exercised");
    if (exercised == results.end() || !exercised->is_object()) return 0;
    const auto dangers = exercised->find("dangers");
    if (dangers == exercised->end() || !dangers->is_object()) return 0;
    std::int64_t seen = 0;
    for (const auto& count : cell.evidence.counts) {
        const auto it = dangers->find(count);
        if (it != dangers->end() && it->is_number_integer()) seen += it->get<std::int64_t>();
    }
    return seen;
}

std::string danger_impossible_without_lease(const CertifyCell& cell, const nlohmann::json& results) {
    if (cell.evidence.counts.empty() || !results.is_object()) return "";
    const nlohmann::json exercised = results.value("exercised", nlohmann::json::object());
    const auto attempts = exercised.value("acquire_attempts", 0);
    if (attempts == 0 || exercised.value("acquires_asking_lease", -1) != 0) return "";
    for (const auto& count : cell.evidence.counts) {
        const DangerKind* kind = find_danger_kind(count);
        if (!kind || !kind->needs_lease) return "";
    }
    return fmt::format("not applicable: the lock has no lease (none of its {} acquires asked for one), and this "
                       "cell's danger is a lease running out: {}",
                       attempts, cell.evidence.danger);
}

bool wants_another_run(const CertifyCell& cell, const std::vector<CellRun>& runs, int repeat, int needed,
                       std::int64_t seen) {
    const int done = static_cast<int>(runs.size());
    if (done < repeat) return true;
    if (seen >= needed || done >= std::max(repeat, cell.evidence.max_runs)) return false;
    const CellStatus last = judge_cell(cell, {runs.back()}).status;
    return last != CellStatus::NotMet && last != CellStatus::Error;
}

std::string run_words(int r, int repeat, int needed, std::int64_t seen) {
    if (r < repeat) return repeat > 1 ? fmt::format(" run {}/{}", r + 1, repeat) : "";
    return fmt::format(" run {} (danger seen {} of {})", r + 1, seen, needed);
}

void apply_evidence(CellResult& result, const CertifyCell& cell, int needed, std::int64_t seen) {
    result.danger = cell.evidence.danger;
    result.needed = needed;
    result.seen = seen;
    if (result.status != CellStatus::Met || seen >= needed) return;
    result.status = CellStatus::NotExercised;
    result.why = fmt::format("its danger came about {} of the {} times needed in {} run{}: {}", seen, needed,
                             result.runs, result.runs == 1 ? "" : "s", cell.evidence.danger);
}

std::string evidence_words(const CellResult& result) {
    return result.needed > 0 ? fmt::format(", danger seen {} of {}", result.seen, result.needed) : "";
}

}  // namespace lockcheck
