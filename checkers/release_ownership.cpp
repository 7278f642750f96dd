#include "checkers/release_ownership.hpp"

#include <fmt/format.h>
#include <map>

#include "checkers/checker_names.hpp"
#include "checkers/lock_history.hpp"

namespace lockcheck {

CheckerResult check_release_ownership(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kReleaseOwnership);
    std::map<std::string, std::size_t> granted;  // owner -> position of its latest acquire ok
    std::size_t reported = 0;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_nemesis() || op.type != OpType::Ok || partner[p] == kNoOp) continue;
        const Op& invoke = history[static_cast<std::size_t>(partner[p])];
        if (op.f == fn::kAcquire && invoke.owner) granted[std::string(*invoke.owner)] = p;
        if (op.f != fn::kRelease || !op.value.is_object()) continue;
        const auto removed = op.value.find("removed_owner");
        if (removed == op.value.end() || !removed->is_string()) continue;
        ++reported;
        const auto victim = removed->get<std::string>();
        if (invoke.owner && victim == *invoke.owner) continue;
        Violation v;
        v.kind = kReleaseByNonOwner;
        v.ops = {invoke.index, op.index};
        if (auto it = granted.find(victim); it != granted.end()) v.ops.push_back(history[it->second].index);
        v.description = fmt::format("worker {} (owner '{}') released '{}' at op {} and deleted the lock of owner '{}'",
                                    op.process, invoke.owner.value_or("?"), op.key, op.index, victim);
        v.details = {{"key", op.key}, {"process", op.process}, {"removed_owner", victim}};
        if (invoke.owner) v.details["owner"] = *invoke.owner;
        result.violations.push_back(std::move(v));
    }
    result.valid = result.violations.empty() ? Validity::Valid : Validity::Invalid;
    result.stats = {{"releases_reporting_owner", reported},
                    {"releases_by_non_owner", result.violations.size()},
                    {"summary", reported == 0 ? std::string("no release reported what it removed")
                                              : fmt::format("{} of {} releases deleted another owner's lock",
                                                            result.violations.size(), reported)}};
    return result;
}

const CheckerDescriptor& release_ownership_checker() {
    static const CheckerDescriptor descriptor{checker_name::kReleaseOwnership,
                                              "releases that removed a lock another owner held", history_is_lock,
                                              check_release_ownership, stats_summary};
    return descriptor;
}

}  // namespace lockcheck
