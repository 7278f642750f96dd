#include "checkers/run_checkers.hpp"

#include <algorithm>
#include <chrono>

#include "checkers/checker_registry.hpp"

namespace lockcheck {
namespace {

/// The verdict of a history no checker can judge, or nothing.
void mark_undecidable(const History& history, CheckReport& report) {
    if (std::any_of(history.begin(), history.end(), [](const Op& op) { return !op.is_nemesis(); })) return;
    report.valid = Validity::Unknown;
    report.unknown_reason = history.empty()
                                ? "the history holds no ops: there is nothing to check"
                                : "the history holds no client ops, only the nemesis's: there is nothing to check";
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

CheckReport run_checkers(const History& history) {
    const auto partner = pair_ops(history);
    CheckReport report;
    for (const CheckerDescriptor* checker : checker_descriptors())
        if (checker->applies(history)) report.checkers.push_back(run_timed(*checker, history, partner));
    for (const auto& c : report.checkers)
        if (c.counts_toward_verdict) report.valid = combine(report.valid, c.valid);
    mark_undecidable(history, report);
    return report;
}

}  // namespace lockcheck
