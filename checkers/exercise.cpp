#include "checkers/exercise.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "checkers/danger_counts.hpp"
#include "checkers/lock_history.hpp"

namespace lockcheck {
namespace {

/// The acquires of a lock history, by how they were answered.
struct AcquireCounts {
    std::int64_t attempts = 0, granted = 0, refused = 0, failed = 0;
    int first_unanswered_process = -1;  ///< the worker of the first acquire not granted: its log says why
    std::int64_t unknown() const { return attempts - granted - refused - failed; }
};

AcquireCounts count_acquires(const History& history) {
    AcquireCounts n;
    for (const Op& op : history) {
        if (op.f != fn::kAcquire) continue;
        if (op.is_invoke()) {
            ++n.attempts;
            continue;
        }
        if (op.type == OpType::Ok) {
            ++n.granted;
            continue;
        }
        if (op.type == OpType::Fail) ++(op.error == err::kHeld ? n.refused : n.failed);
        if (n.first_unanswered_process < 0) n.first_unanswered_process = op.process;
    }
    return n;
}

/// The lock workload's shortfall: no acquire granted.
std::string judge_acquires(const History& history, nlohmann::json& figures) {
    const AcquireCounts n = count_acquires(history);
    figures["acquire_attempts"] = n.attempts;
    figures["acquires_granted"] = n.granted;
    figures["acquires_unknown"] = n.unknown();
    figures["acquires_refused"] = n.refused;
    figures["acquires_failed"] = n.failed;
    figures["acquires_asking_lease"] = std::count_if(history.begin(), history.end(), [](const Op& op) {
        return op.f == fn::kAcquire && op.is_invoke() && op.ttl_ms.has_value();
    });
    if (n.granted > 0) return "";
    if (n.attempts == 0) return "no acquire was attempted: the run says nothing about the lock";
    std::string reason = fmt::format("no acquire was granted in {} attempt{} ({} unknown, {} refused", n.attempts,
                                     n.attempts == 1 ? "" : "s", n.unknown(), n.refused);
    if (n.failed > 0) reason += fmt::format(", {} failed", n.failed);
    reason += ")";
    if (n.first_unanswered_process >= 0)
        reason += fmt::format(": see workers/worker-{}.log", n.first_unanswered_process);
    return reason;
}

/// Whether a start-fault completion records a fault that hit a target.
bool struck(const Op& op) {
    if (op.f != fn::kStartFault || op.is_invoke() || op.error || !op.value.is_object()) return false;
    const auto it = op.value.find("targets");
    return it != op.value.end() && it->is_array() && !it->empty();
}

/// The fault kind an op of the nemesis names, or "".
std::string fault_kind(const Op& op) {
    if (!op.value.is_object()) return "";
    const auto it = op.value.find("fault");
    return it != op.value.end() && it->is_string() ? it->get<std::string>() : "";
}

/// The nemesis's shortfall: faults asked for, none struck.
std::string judge_faults(const History& history, const RunClaims& claims, nlohmann::json& figures) {
    std::vector<std::string> asked = claims.faults.value_or(std::vector<std::string>{});
    std::int64_t started = 0, hits = 0;
    for (const Op& op : history) {
        if (!op.is_nemesis() || op.f != fn::kStartFault) continue;
        started += op.is_invoke();
        hits += struck(op);
        if (const auto kind = fault_kind(op);
            !claims.faults && !kind.empty() && std::find(asked.begin(), asked.end(), kind) == asked.end())
            asked.push_back(kind);
    }
    if (asked.empty() && !claims.faults && started > 0) asked.push_back("the faults it started");
    if (asked.empty()) return "";
    figures["faults_asked"] = asked;
    figures["faults_started"] = started;
    figures["faults_struck"] = hits;
    if (hits > 0) return "";
    std::string kinds;
    for (const auto& kind : asked) kinds += (kinds.empty() ? "" : ", ") + kind;
    const std::string attempts =
        started == 0 ? "" : fmt::format(" ({} attempt{}, none hit a target)", started, started == 1 ? "" : "s");
    return "the nemesis never struck" + attempts + ": the run says nothing about " + kinds;
}

}  // namespace

Exercise judge_exercise(const History& history, const RunClaims& claims) {
    Exercise out;
    if (history_is_lock(history)) {
        out.shortfall = judge_acquires(history, out.figures);
        out.figures["dangers"] = danger_counts(history, pair_ops(history));
    }
    const std::string faults = judge_faults(history, claims, out.figures);
    if (out.shortfall.empty()) out.shortfall = faults;
    return out;
}

std::optional<std::vector<std::string>> faults_asked_by(const nlohmann::json& spec) {
    if (!spec.is_object()) return std::nullopt;
    const auto it = spec.find("nemesis");
    if (it == spec.end() || !it->is_array()) return std::nullopt;
    std::vector<std::string> faults;
    for (const auto& kind : *it) {
        if (!kind.is_string()) return std::nullopt;
        faults.push_back(kind.get<std::string>());
    }
    return faults;
}

}  // namespace lockcheck
