#include "checkers/run_checkers.hpp"

#include <algorithm>
#include <chrono>

#include "checkers/checker_registry.hpp"
#include "checkers/server_witness.hpp"

namespace lockcheck {
namespace {

/// The verdict of a history no checker can judge, or nothing.
bool mark_undecidable(const History& history, CheckReport& report) {
    if (std::any_of(history.begin(), history.end(), [](const Op& op) { return !op.is_nemesis(); })) return false;
    report.valid = Validity::Unknown;
    report.unknown_reason = history.empty()
                                ? "the history holds no ops: there is nothing to check"
                                : "the history holds no client ops, only the nemesis's: there is nothing to check";
    return true;
}

/// The reason of the first counting checker that could not decide, or "".
std::string checker_unknown_reason(const CheckReport& report) {
    for (const auto& c : report.checkers) {
        if (!c.counts_toward_verdict || c.valid != Validity::Unknown) continue;
        const auto it = c.stats.find("unknown_reason");
        if (it != c.stats.end() && it->is_string()) return c.name + ": " + it->get<std::string>();
    }
    return "";
}

/// A valid verdict of a run that did not exercise what it claims becomes
/// unknown, with the shortfall as its reason.
void mark_unexercised(const History& history, const RunClaims& claims, CheckReport& report) {
    Exercise exercise = judge_exercise(history, claims);
    report.exercised = std::move(exercise.figures);
    if (report.valid != Validity::Valid || exercise.shortfall.empty()) return;
    report.valid = Validity::Unknown;
    report.unknown_reason = std::move(exercise.shortfall);
}

/// Runs one checker and records how long it took.
CheckerResult run_timed(const CheckerDescriptor& checker, const History& history,
                        const std::vector<std::int64_t>& partner) {
    const auto start = std::chrono::steady_clock::now();
    CheckerResult result = checker.run(history, partner);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace

CheckReport run_checkers(const History& history, const RunClaims& claims, const ServerRecord* server_record) {
    const auto partner = pair_ops(history);
    CheckReport report;
    for (const CheckerDescriptor* checker : checker_descriptors())
        if (checker->applies(history)) report.checkers.push_back(run_timed(*checker, history, partner));
    apply_server_witness(history, partner, server_record, report);
    for (const auto& c : report.checkers)
        if (c.counts_toward_verdict) report.valid = combine(report.valid, c.valid);
    if (mark_undecidable(history, report)) return report;
    if (report.valid == Validity::Unknown) report.unknown_reason = checker_unknown_reason(report);
    mark_unexercised(history, claims, report);
    return report;
}

}  // namespace lockcheck
