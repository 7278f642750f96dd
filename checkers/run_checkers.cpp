#include "checkers/run_checkers.hpp"

#include <algorithm>
#include <chrono>

#include "checkers/linearizability.hpp"
#include "checkers/liveness.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/oversell.hpp"
#include "checkers/release_ownership.hpp"
#include "checkers/resource.hpp"

namespace lockcheck {

bool history_uses_leases(const History& history) {
    for (const Op& op : history)
        if (op.f == fn::kAcquire && op.ttl_ms) return true;
    return false;
}

namespace {

/// The verdict of a history no checker can judge, or nothing.
void mark_undecidable(const History& history, CheckReport& report) {
    if (std::any_of(history.begin(), history.end(), [](const Op& op) { return !op.is_nemesis(); })) return;
    report.valid = Validity::Unknown;
    report.unknown_reason = history.empty() ? "the history holds no ops: there is nothing to check"
                                            : "the history holds no client ops, only the nemesis's: there is nothing to check";
}

/// Runs one checker and records how long it took.
template <typename Check>
CheckerResult timed(Check check) {
    const auto start = std::chrono::steady_clock::now();
    CheckerResult result = check();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace

CheckReport run_checkers(const History& history) {
    const auto partner = pair_ops(history);
    CheckReport report;
    if (history_is_stock(history)) {  // not a lock: no sessions, no resource; oversell judges it
        report.checkers.push_back(timed([&] { return check_oversell(history, partner); }));
        report.checkers.push_back(timed([&] { return check_liveness(history, partner); }));
        for (const auto& c : report.checkers)
            if (c.counts_toward_verdict) report.valid = combine(report.valid, c.valid);
        mark_undecidable(history, report);
        return report;
    }
    report.checkers.push_back(timed([&] { return check_mutual_exclusion(history, partner); }));
    report.checkers.push_back(timed([&] { return check_resource(history, partner); }));
    CheckerResult strict = timed([&] { return check_linearizability(history, partner); });
    if (history_uses_leases(history)) {
        strict.counts_toward_verdict = false;
        strict.stats["advisory"] =
            "strict lock model without leases: a lease that expires under its holder counts as a violation here; "
            "the mutual-exclusion checker judges lease promises";
    }
    report.checkers.push_back(std::move(strict));
    report.checkers.push_back(timed([&] { return check_liveness(history, partner); }));
    report.checkers.push_back(timed([&] { return check_release_ownership(history, partner); }));
    for (const auto& c : report.checkers)
        if (c.counts_toward_verdict) report.valid = combine(report.valid, c.valid);
    mark_undecidable(history, report);
    return report;
}

}  // namespace lockcheck
