#include "reports/verdict_story.hpp"

#include <fmt/format.h>

#include <map>
#include <string_view>

#include "checkers/checker_names.hpp"
#include "core/counted.hpp"
#include "reports/lease_words.hpp"
#include "reports/terminal_summary.hpp"

namespace lockcheck {
namespace {

double num(const nlohmann::json& j, const char* field, double fallback = 0) {
    return j.is_object() && j.contains(field) && j[field].is_number() ? j[field].get<double>() : fallback;
}

std::string text(const nlohmann::json& j, const char* field) {
    return j.is_object() && j.contains(field) && j[field].is_string() ? j[field].get<std::string>() : "";
}

const CheckerResult* find_checker(const CheckReport& report, std::string_view name) {
    for (const auto& c : report.checkers)
        if (c.name == name) return &c;
    return nullptr;
}

/// The sentence about the longest overlap, and which mark it is.
std::string overlap_story(const CheckerResult& mutex, const ReportModel& model, int& mark_index) {
    const Violation* worst = gravest_violation(mutex);  // the one the terminal shows too
    if (!worst) return "";
    for (std::size_t i = 0; i < model.violations.size(); ++i)
        if (model.violations[i].checker == mutex.name && model.violations[i].ops == worst->ops)
            mark_index = static_cast<int>(i);
    const auto& d = worst->details;
    const std::string lease = lease_words(*worst, model.linked_ops);
    std::string fault = "No fault was active at the time.";
    if (mark_index >= 0) {
        const std::string names =
            describe_faults(model.faults, model.violations[static_cast<std::size_t>(mark_index)].faults);
        if (!names.empty()) fault = "Fault active at the time: " + names + ".";
    }
    const std::size_t total = mutex.violations_total();
    return fmt::format(
        "Lock '{}': worker {} acquired it at op {} while worker {} still held it since op {} ({}). "
        "They overlapped for {:.1f} ms. {}{}",
        text(d, "key"), num(d, "second_process"), worst->ops.size() > 2 ? worst->ops[2] : -1, num(d, "first_process"),
        worst->ops.size() > 1 ? worst->ops[1] : -1, lease, num(d, "overlap_ms"), fault,
        total > 1 ? fmt::format(" This is the longest of {} overlaps.", total) : "");
}

}  // namespace

VerdictStory tell_verdict(const CheckReport& report, const ReportModel& model, const nlohmann::json& spec) {
    VerdictStory story;
    story.verdict = std::string(to_string(report.valid));
    story.headline = verdict_sentence(report);
    if (spec.is_object())
        story.lines.push_back(fmt::format("Scenario '{}': recipe {} on {}, {} workers, lease {} ms, fencing {}.",
                                          text(spec, "name"), text(spec, "recipe"), text(spec, "topology"),
                                          num(spec, "workers"), num(spec, "ttl_ms"),
                                          spec.contains("fencing") && spec["fencing"] == true ? "on" : "off"));
    const CheckerResult* mutex = find_checker(report, checker_name::kMutualExclusion);
    if (mutex && mutex->valid == Validity::Invalid) {
        story.lines.push_back(overlap_story(*mutex, model, story.worst_violation));
    } else if (mutex) {
        story.lines.push_back(
            fmt::format("No two clients held the same lock at once ({}).",
                        counted(static_cast<std::int64_t>(num(mutex->stats, "sessions")), "lock session")));
    }
    if (const CheckerResult* resource = find_checker(report, checker_name::kResource)) {
        const double lost = num(resource->stats, "lost_updates"), stale = num(resource->stats, "stale_writes_accepted");
        if (lost > 0 || stale > 0)
            story.lines.push_back(fmt::format("The protected resource lost {} and accepted {}.",
                                              counted(static_cast<std::int64_t>(lost), "update"),
                                              counted(static_cast<std::int64_t>(stale), "stale write")));
        else if (num(resource->stats, "fenced") > 0)
            story.lines.push_back(fmt::format(
                "Fencing rejected {}: no update was lost.",
                counted(static_cast<std::int64_t>(num(resource->stats, "fenced")), "stale access", "stale accesses")));
    }
    if (story.worst_violation < 0 && report.valid != Validity::Valid)
        for (std::size_t i = 0; i < model.violations.size(); ++i)
            if (!model.violations[i].advisory) {  // the first finding that counts toward the verdict
                story.worst_violation = static_cast<int>(i);
                story.lines.push_back("First finding (" + model.violations[i].kind +
                                      "): " + model.violations[i].description + ".");
                break;
            }
    story.lines.push_back(faults_sentence(model.faults));
    return story;
}

}  // namespace lockcheck
