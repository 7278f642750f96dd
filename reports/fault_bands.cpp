#include "reports/fault_bands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace lockcheck {
namespace {

std::int64_t integer_field(const nlohmann::json& object, const char* field) {
    return object.contains(field) && object[field].is_number_integer() ? object[field].get<std::int64_t>() : 0;
}

std::string band_words(const FaultBand& band) {
    std::string targets;
    for (const auto& t : band.targets) targets += (targets.empty() ? " on " : ", ") + t;
    return fmt::format("{} #{}{} ({:.0f} ms, ops {}–{})", band.kind, band.id, targets,
                       static_cast<double>(band.end_ns - band.start_ns) / 1e6, band.start_op, band.end_op);
}

/// "47 × kill-restart (#3–#49) on n1, n2, n3": one kind's bands in one phrase.
std::string kind_words(const std::string& kind, const std::vector<const FaultBand*>& bands) {
    std::set<std::string> targets;
    std::int64_t first = bands.front()->id, last = first;
    for (const auto* band : bands) {
        first = std::min(first, band->id);
        last = std::max(last, band->id);
        targets.insert(band->targets.begin(), band->targets.end());
    }
    std::string on;
    for (const auto& t : targets) on += (on.empty() ? " on " : ", ") + t;
    return fmt::format("{} × {} (#{}–#{}){}", bands.size(), kind, first, last, on);
}

}  // namespace

std::string_view to_string(FaultStatus status) {
    switch (status) {
        case FaultStatus::Effective: return "effective";
        case FaultStatus::Failed: return "failed";
        case FaultStatus::Unfinished: return "unfinished";
        case FaultStatus::NotRun: return "not-run";
    }
    return "effective";
}

std::vector<FaultBand> scan_fault_bands(const History& history, const nlohmann::json& schedule, std::int64_t end_ns) {
    std::map<std::int64_t, FaultBand> bands;
    for (const Op& op : history) {
        if (!op.is_nemesis() || !op.value.is_object() || !op.value.contains("id") ||
            !op.value["id"].is_number_integer())
            continue;
        const auto id = op.value["id"].get<std::int64_t>();
        auto& band = bands[id];
        band.id = id;
        if (op.value.contains("fault") && op.value["fault"].is_string())
            band.kind = op.value["fault"].get<std::string>();
        if (op.value.contains("targets") && op.value["targets"].is_array()) {
            band.targets.clear();
            for (const auto& t : op.value["targets"])
                band.targets.push_back(t.is_string() ? t.get<std::string>() : t.dump());
        }
        if (op.f == fn::kStartFault && op.is_invoke()) {
            band.status = FaultStatus::Unfinished;
            band.invoke_ns = band.start_ns = op.time;
            band.end_ns = end_ns;
        } else if (op.f == fn::kStartFault) {
            band.start_ns = op.time;
            band.start_op = op.index;
            band.status = op.error ? FaultStatus::Failed : FaultStatus::Effective;
            band.error = op.error.value_or("");
            if (op.error) band.end_ns = op.time;
        } else if (op.f == fn::kStopFault && !op.is_invoke()) {
            band.end_ns = op.time;
            band.end_op = op.index;
        }
    }
    if (schedule.is_array())
        for (const auto& event : schedule) {
            if (!event.is_object() || !event.contains("id") || !event["id"].is_number_integer()) continue;
            const auto id = event["id"].get<std::int64_t>();
            if (bands.count(id) > 0) continue;
            FaultBand band;
            band.id = id;
            band.kind = event.value("fault", event.value("kind", ""));  // "kind": runs before the field was renamed
            band.status = FaultStatus::NotRun;
            band.invoke_ns = band.start_ns = integer_field(event, "at_ms") * 1'000'000;
            band.end_ns = band.start_ns + integer_field(event, "duration_ms") * 1'000'000;
            bands[id] = std::move(band);
        }
    std::vector<FaultBand> out;
    for (auto& [id, band] : bands) out.push_back(std::move(band));
    return out;
}

std::string describe_faults(const std::vector<FaultBand>& bands, const std::vector<std::int64_t>& ids) {
    std::vector<const FaultBand*> named;
    for (auto id : ids)
        for (const auto& band : bands)
            if (band.id == id) named.push_back(&band);
    std::string words;
    if (named.size() <= 2) {
        for (const auto* band : named) words += (words.empty() ? "" : "; ") + band_words(*band);
        return words;
    }
    std::map<std::string, std::vector<const FaultBand*>> by_kind;
    for (const auto* band : named) by_kind[band->kind].push_back(band);
    for (const auto& [kind, of_kind] : by_kind)
        words += (words.empty() ? "" : "; ") +
                 (of_kind.size() == 1 ? band_words(*of_kind.front()) : kind_words(kind, of_kind));
    return words;
}

std::string faults_sentence(const std::vector<FaultBand>& bands) {
    std::map<std::string, int> kinds;
    std::string failed, not_run;
    int effective = 0;
    for (const auto& band : bands) {
        const auto name = fmt::format("{} #{}", band.kind, band.id);
        if (band.effective()) {
            ++effective;
            ++kinds[band.kind];
        } else if (band.status == FaultStatus::NotRun) {
            not_run += (not_run.empty() ? "" : ", ") +
                       fmt::format("{} (due at {:.2f} s)", name, static_cast<double>(band.start_ns) / 1e9);
        } else {
            failed +=
                (failed.empty() ? "" : ", ") +
                fmt::format("{} ({})", name,
                            band.status == FaultStatus::Failed ? band.error : "still starting when the run ended");
        }
    }
    std::string list;
    for (const auto& [kind, n] : kinds) list += (list.empty() ? "" : ", ") + fmt::format("{} × {}", n, kind);
    std::string sentence = effective == 0
                               ? "No faults were injected."
                               : fmt::format("{} fault{} injected: {}.", effective, effective == 1 ? "" : "s", list);
    if (!failed.empty()) sentence += " Did not take effect: " + failed + ".";
    if (!not_run.empty()) sentence += " Scheduled but not started before the run ended: " + not_run + ".";
    return sentence;
}

}  // namespace lockcheck
