#include "run/expectation_watch.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include "checkers/run_checkers.hpp"
#include "core/interruptible_sleep.hpp"
#include "spec/expectation.hpp"

namespace lockcheck {

bool ExpectationWatch::decides_early(const std::optional<Expectation>& expect) {
    return expect && (expect->valid == std::string(to_string(Validity::Invalid)) ||
                      expect->valid == std::string(to_string(Validity::Valid)) || !expect->lacks.empty());
}

ExpectationWatch::ExpectationWatch(Expectation expect) : expect_(std::move(expect)) {}

void ExpectationWatch::observe(const Op& op) {
    std::lock_guard lock(mutex_);
    arrived_.push_back(op);
}

namespace {

/// "invalid with K1, K2" for `kinds`, or "invalid".
std::string invalid_with(const std::set<std::string>& kinds) {
    std::string words = "invalid";
    const char* separator = " with ";
    for (const auto& kind : kinds) {
        words += separator + kind;
        separator = ", ";
    }
    return words;
}

/// Why the violations of `kinds` (an invalid prefix) certainly break
/// `expect`, or "" when they do not (yet).
std::string certain_mismatch(const Expectation& expect, const std::set<std::string>& kinds) {
    if (expect.valid == std::string(to_string(Validity::Valid))) return "expected valid, found " + invalid_with(kinds);
    for (const auto& kind : expect.lacks)
        if (kinds.count(kind)) return "expected no " + kind + ", found some";
    return "";
}

}  // namespace

std::optional<EarlyDecision> ExpectationWatch::check() {
    {
        std::lock_guard lock(mutex_);
        std::move(arrived_.begin(), arrived_.end(), std::back_inserter(history_));
        arrived_.clear();
    }
    if (history_.empty()) return std::nullopt;
    const CheckReport report = run_checkers(history_);
    if (report.valid != Validity::Invalid) return std::nullopt;
    std::set<std::string> kinds;
    for (const auto& checker : report.checkers)
        if (checker.counts_toward_verdict)
            for (const auto& v : checker.violations) kinds.insert(v.kind);
    std::string reason;
    if (const auto mismatch = certain_mismatch(expect_, kinds); !mismatch.empty())
        reason = "expectation not met: " + mismatch;
    else if (expect_.valid == std::string(to_string(Validity::Invalid)) && evaluate(expect_, report).matched)
        reason = "expectation met: " + invalid_with(kinds);
    else
        return std::nullopt;
    return EarlyDecision{reason, static_cast<std::int64_t>(history_.size()),
                         static_cast<double>(history_.back().time) / 1e9};
}

std::optional<EarlyDecision> ExpectationWatch::watch(const std::stop_token& stop, std::chrono::milliseconds interval) {
    auto wait = interval;
    while (interruptible_sleep_for(stop, wait)) {
        const auto began = std::chrono::steady_clock::now();
        try {
            if (auto decision = check()) return decision;
        } catch (const HistoryError& e) {  // the recorder's own history: the end of the run reports it
            spdlog::error("live check stopped: {}", e.what());
            return std::nullopt;
        }
        const auto took =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began);
        wait = std::max(interval, 4 * took);
    }
    return std::nullopt;
}

}  // namespace lockcheck
