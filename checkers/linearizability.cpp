#include "checkers/linearizability.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <optional>
#include <set>

#include "checkers/checker_names.hpp"
#include "checkers/indeterminate_cover.hpp"
#include "checkers/lock_fast_check.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/lock_ops.hpp"
#include "checkers/lock_search.hpp"
#include "checkers/lock_witness.hpp"
#include "core/counted.hpp"

namespace lockcheck {
namespace {

constexpr std::size_t kWitnessBudget = 200'000;

KeyVerdict search_verdict(const History& history, const KeyLockOps& key, const LinearizabilityOptions& options,
                          std::string why) {
    SearchOutcome s = search_key(key, options.search_budget);
    KeyVerdict v;
    v.valid = s.valid;
    v.search_configs = s.configs;
    v.note = std::move(why);
    if (s.valid == Validity::Unknown) {
        v.note += (v.note.empty() ? "" : "; ") + s.note;
    } else if (s.valid == Validity::Invalid) {
        const LockOp& failed = key.ops[static_cast<std::size_t>(s.failed_op)];
        v.findings.push_back(
            {kNotLinearizable, shrink_witness(key, s, kWitnessBudget),
             fmt::format("no linearization lets owner '{}' {} as recorded: {} the lock was certainly free with "
                         "nothing pending, and the listed ops since then cannot be linearized",
                         key.owners[static_cast<std::size_t>(failed.owner)],
                         failed.kind == LockOpKind::Release    ? "release the lock"
                         : failed.outcome == LockOutcome::Busy ? "be told the lock was held"
                                                               : "acquire the lock",
                         s.window_start > 0
                             ? fmt::format("after op {}", history[static_cast<std::size_t>(s.window_start - 1)].index)
                             : std::string("at the start"))});
        v.total_findings = 1;
    } else {
        v.certificate = std::move(s.certificate);
    }
    return v;
}

/// A finding as the report lists it: history indices of its ops, sorted.
Violation to_violation(const History& history, const KeyLockOps& key, const LockFinding& f, const KeyVerdict& v) {
    Violation out{f.kind, {}, fmt::format("key '{}': {}", key.key, f.description), {{"key", key.key}}};
    std::vector<std::int64_t> positions;
    for (auto i : f.ops) append_positions(key.ops[i], positions);
    std::sort(positions.begin(), positions.end());
    for (auto p : positions) out.ops.push_back(history[static_cast<std::size_t>(p)].index);
    out.details["method"] = v.search_configs > 0 ? "search" : "fast";
    return out;
}

}  // namespace

CheckerResult check_linearizability(const History& history, const std::vector<std::int64_t>& partner,
                                    const LinearizabilityOptions& options) {
    CheckerResult result;
    result.name = std::string(checker_name::kLinearizability);
    std::size_t fast = 0, searched = 0, unknown = 0, ops = 0, certified = 0, configs = 0, findings = 0, explained = 0;
    nlohmann::json explained_listed = nlohmann::json::array();
    nlohmann::json unknown_keys = nlohmann::json::object(), searched_keys = nlohmann::json::object();

    for (const KeyLockOps& key : collect_lock_ops(history, partner)) {
        ops += key.ops.size();
        std::string outside = "search forced";
        std::optional<KeyVerdict> verdict;
        std::optional<IndeterminateCover> cover;
        if (options.explain_by_indeterminate_acquires) cover.emplace(history, key);
        if (!options.force_search)
            verdict = check_key_fast(key, options.max_findings, &outside, cover ? &*cover : nullptr);
        const bool by_fast_path = verdict.has_value();
        if (by_fast_path) {
            ++fast;
        } else {
            ++searched;
            verdict = search_verdict(history, key, options, outside);
            searched_keys[key.key] = outside;
        }
        KeyVerdict& v = *verdict;
        if (v.valid == Validity::Valid) {  // the one replay of either path's certificate
            if (auto why = replay_certificate(key, v.certificate); !why.empty()) {
                v.valid = Validity::Unknown;  // a bug in this checker, never a verdict on the history
                v.note = fmt::format("internal error: {} certificate does not replay: {}",
                                     by_fast_path ? "fast-path" : "search", why);
            } else {
                certified += v.certificate.size();
            }
        }
        configs += v.search_configs;
        findings += v.total_findings;
        if (v.valid == Validity::Unknown) {
            ++unknown;
            unknown_keys[key.key] = v.note;
        }
        result.valid = combine(result.valid, v.valid);
        for (LockFinding& f : v.findings) result.violations.push_back(to_violation(history, key, f, v));
        explained += v.total_explained;
        for (LockFinding& f : v.explained)
            if (explained_listed.size() < kMaxListedExplained) {
                const Violation e = to_violation(history, key, f, v);
                explained_listed.push_back(
                    {{"kind", e.kind}, {"key", key.key}, {"ops", e.ops}, {"description", e.description}});
            }
    }
    result.stats = {{"model", "mutex per key, owner-aware, no leases (strict)"},
                    {"keys", fast + searched},
                    {"keys_fast_path", fast},
                    {"keys_searched", searched},
                    {"keys_unknown", unknown},
                    {"lock_ops", ops},
                    {"certified_ops", certified},
                    {"search_configurations", configs},
                    {"findings", findings}};
    if (!searched_keys.empty()) result.stats["searched_because"] = searched_keys;
    if (!unknown_keys.empty()) result.stats["unknown_because"] = unknown_keys;
    if (options.explain_by_indeterminate_acquires) {
        result.stats["explained_by_indeterminate_acquires"] = explained;
        if (!explained_listed.empty()) result.stats["explained_findings"] = explained_listed;
    }
    return result;
}

bool history_uses_leases(const History& history) {
    return std::any_of(history.begin(), history.end(),
                       [](const Op& op) { return op.f == fn::kAcquire && op.ttl_ms.has_value(); });
}

namespace {

/// The strict check, reported as advisory when the history's locks have leases.
CheckerResult judge_strictly(const History& history, const std::vector<std::int64_t>& partner) {
    const bool leases = history_uses_leases(history);
    CheckerResult strict = check_linearizability(history, partner, {.explain_by_indeterminate_acquires = leases});
    if (leases) {
        strict.counts_toward_verdict = false;
        strict.stats["advisory"] =
            "strict lock model without leases: a lease that expires under its holder counts as a violation here; "
            "the mutual-exclusion checker judges lease promises";
    }
    return strict;
}

std::string linearizability_summary(const CheckerResult& r) {
    const std::int64_t explained = stat_integer(r, "explained_by_indeterminate_acquires");
    const std::string explained_note =
        explained == 0
            ? ""
            : fmt::format("; {} that indeterminate acquires explain (details)", counted(explained, "busy answer"));
    switch (r.valid) {
        case Validity::Valid:
            return fmt::format("linearizable: {} on {}, certificate replayed",
                               counted(stat_integer(r, "lock_ops"), "lock op"),
                               counted(stat_integer(r, "keys"), "key"));
        case Validity::Unknown:
            return fmt::format("undecided on {} of {} ({}){}", stat_integer(r, "keys_unknown"),
                               counted(stat_integer(r, "keys"), "key"),
                               explained > 0 ? "the strict model cannot express a lapsed lease" : "search budget spent",
                               explained_note);
        case Validity::Invalid: break;
    }
    std::set<std::string> kinds;
    for (const auto& v : r.violations) kinds.insert(v.kind);
    std::string names;
    for (const auto& k : kinds) names += (names.empty() ? "" : ", ") + k;
    return fmt::format("not linearizable: {} ({}){}",
                       counted(static_cast<std::int64_t>(r.violations_total()), "finding"), names, explained_note);
}

}  // namespace

const CheckerDescriptor& linearizability_checker() {
    static const CheckerDescriptor descriptor{checker_name::kLinearizability,
                                              "the strict lock model (free or held by one owner), with a certificate",
                                              history_is_lock, judge_strictly, linearizability_summary};
    return descriptor;
}

}  // namespace lockcheck
