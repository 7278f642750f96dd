#include "checkers/unique_ids.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "checkers/checker_names.hpp"
#include "core/json_integer.hpp"

namespace lockcheck {
namespace {

/// Duplicates listed as violations; the rest are counted only.
constexpr std::size_t kListedDuplicates = 100;

/// The ok completion that issued an id.
struct Issue {
    std::int64_t op = kNoOp;  ///< its history index
    int process = 0;
    std::int64_t time = 0;
};

struct KeyIds {
    std::unordered_map<std::int64_t, Issue> first_issue;  ///< id -> the completion that issued it first
    std::int64_t issued = 0, indeterminate = 0, failed = 0, without_id = 0, duplicates = 0;
    std::optional<std::int64_t> lowest, highest;
};

nlohmann::json issue_json(const Issue& issue) {
    return {{"op", issue.op}, {"process", issue.process}, {"time_ns", issue.time}};
}

Violation duplicate(const std::string& key, std::int64_t id, const Issue& first, const Issue& again) {
    return {kDuplicateId,
            {first.op, again.op},
            fmt::format("'{}': id {} was issued twice, to worker {} (op {}, at {:.3f} s) and to worker {} (op {}, at "
                        "{:.3f} s)",
                        key, id, first.process, first.op, static_cast<double>(first.time) / 1e9, again.process,
                        again.op, static_cast<double>(again.time) / 1e9),
            {{"key", key}, {"id", id}, {"first", issue_json(first)}, {"second", issue_json(again)}}};
}

/// Takes one ok completion of generate-id into its key's figures; a duplicate goes to `result`.
void take_issue(const Op& done, KeyIds& k, CheckerResult& result) {
    const auto id = done.value.is_object() && done.value.contains("id") ? json_integer<std::int64_t>(done.value["id"])
                                                                        : std::nullopt;
    if (!id) {
        ++k.without_id;
        return;
    }
    ++k.issued;
    k.lowest = std::min(k.lowest.value_or(*id), *id);
    k.highest = std::max(k.highest.value_or(*id), *id);
    const Issue issue{done.index, done.process, done.time};
    const auto [first, fresh] = k.first_issue.try_emplace(*id, issue);
    if (fresh) return;
    ++k.duplicates;
    if (result.violations.size() < kListedDuplicates)
        result.violations.push_back(duplicate(done.key, *id, first->second, issue));
    else
        ++result.unlisted_violations;
}

nlohmann::json optional_json(const std::optional<std::int64_t>& n) { return n ? nlohmann::json(*n) : nlohmann::json(); }

}  // namespace

bool history_has_ids(const History& history) {
    return std::any_of(history.begin(), history.end(), [](const Op& op) { return op.f == fn::kGenerateId; });
}

CheckerResult check_unique_ids(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kUniqueIds);
    std::map<std::string, KeyIds> keys;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_nemesis() || op.f != fn::kGenerateId) continue;
        KeyIds& k = keys[op.key];
        if (op.is_invoke()) {
            if (partner[p] == kNoOp) ++k.indeterminate;  // never completed: may have consumed an id
        } else if (op.type == OpType::Ok) {
            take_issue(op, k, result);
        } else if (op.type == OpType::Info) {
            ++k.indeterminate;
        } else {
            ++k.failed;
        }
    }
    nlohmann::json figures = nlohmann::json::object();
    std::int64_t issued = 0, duplicates = 0, indeterminate = 0, without_id = 0;
    for (const auto& [key, k] : keys) {
        figures[key] = {{"issued", k.issued},
                        {"distinct", k.first_issue.size()},
                        {"duplicates", k.duplicates},
                        {"indeterminate", k.indeterminate},
                        {"failed", k.failed},
                        {"without_id", k.without_id},
                        {"lowest", optional_json(k.lowest)},
                        {"highest", optional_json(k.highest)}};
        issued += k.issued;
        duplicates += k.duplicates;
        indeterminate += k.indeterminate;
        without_id += k.without_id;
    }
    result.stats = {{"keys", figures},
                    {"issued", issued},
                    {"duplicates", duplicates},
                    {"indeterminate", indeterminate},
                    {"without_id", without_id}};
    result.stats["summary"] =
        fmt::format("{} ids issued ({} indeterminate requests), {} duplicates", issued, indeterminate, duplicates);
    if (duplicates > 0) {
        result.valid = Validity::Invalid;
    } else if (without_id > 0) {
        result.valid = Validity::Unknown;
        result.stats["unknown_reason"] =
            fmt::format("{} generate-id completed ok without an integer id: a duplicate could hide there", without_id);
    } else if (issued == 0) {
        result.valid = Validity::Unknown;
        result.stats["unknown_reason"] = "no generate-id completed ok: there are no ids to compare";
    }
    return result;
}

const CheckerDescriptor& unique_ids_checker() {
    static const CheckerDescriptor descriptor{checker_name::kUniqueIds,
                                              "id-generator histories: an id issued twice",
                                              history_has_ids,
                                              check_unique_ids,
                                              stats_summary,
                                              "no id was issued twice",
                                              "two requests were given the same id"};
    return descriptor;
}

}  // namespace lockcheck
