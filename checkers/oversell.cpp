#include "checkers/oversell.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "checkers/checker_names.hpp"
#include "core/counted.hpp"
#include "core/json_integer.hpp"

namespace lockcheck {
namespace {

struct KeyStock {
    std::optional<std::int64_t> initial;
    std::int64_t init_op = kNoOp;
    std::vector<std::int64_t> sold;  ///< indices of the ok decrements
    std::int64_t indeterminate = 0, sold_out = 0, failed = 0;
    std::int64_t last_decrement_ns = -1;  ///< latest invoke or completion time of any decrement
    struct Read {
        std::int64_t invoke_ns = 0, value = 0, op = kNoOp;
    };
    std::vector<Read> reads;  ///< ok stock-reads
};

/// The initial stock a stock-init reported: an integer in [0, 10^15] (so the
/// arithmetic below cannot overflow), else none.
std::optional<std::int64_t> stock_of(const nlohmann::json& value) {
    if (!value.is_object() || !value.contains("stock")) return std::nullopt;
    const auto n = json_integer<std::int64_t>(value["stock"]);
    if (!n || *n < 0 || *n > 1'000'000'000'000'000) return std::nullopt;
    return n;
}

/// Judges one key: appends its findings and figures; returns how many it oversold.
std::int64_t judge(const std::string& key, const KeyStock& k, CheckerResult& result, nlohmann::json& figures) {
    const auto certain = static_cast<std::int64_t>(k.sold.size());
    nlohmann::json f = {{"initial", k.initial ? nlohmann::json(*k.initial) : nlohmann::json(nullptr)},
                        {"sold", certain},
                        {"indeterminate", k.indeterminate},
                        {"sold_out", k.sold_out},
                        {"failed", k.failed},
                        {"final", nullptr}};
    if (!k.initial) {
        figures[key] = f;
        return 0;
    }
    if (certain > *k.initial) {
        Violation v{kOversell, {k.init_op}, "", {{"key", key}, {"initial", *k.initial}, {"sold", certain}}};
        // The sales beyond the stock (at most 20 listed).
        for (std::size_t i = static_cast<std::size_t>(*k.initial); i < k.sold.size() && v.ops.size() < 21; ++i)
            v.ops.push_back(k.sold[i]);
        v.description = fmt::format("'{}' sold {} items out of a stock of {} (op {} set it): {} oversold", key, certain,
                                    *k.initial, k.init_op, certain - *k.initial);
        result.violations.push_back(std::move(v));
    }
    // The final stock: the last read that began after every decrement had ended.
    const KeyStock::Read* final_read = nullptr;
    for (const auto& r : k.reads)
        if (r.invoke_ns > k.last_decrement_ns) final_read = &r;
    if (final_read) {
        const std::int64_t high = std::max<std::int64_t>(0, *k.initial - certain);
        const std::int64_t low = std::max<std::int64_t>(0, *k.initial - certain - k.indeterminate);
        f["final"] = final_read->value;
        f["final_expected"] = {low, high};
        if (final_read->value < low || final_read->value > high) {
            Violation v{kStockMismatch,
                        {k.init_op, final_read->op},
                        "",
                        {{"key", key}, {"final", final_read->value}, {"expected_min", low}, {"expected_max", high}}};
            v.description = fmt::format(
                "'{}' ended with {} in stock (op {}), but {} initial - {} certain sales - up to {} indeterminate "
                "leaves between {} and {}: {}",
                key, final_read->value, final_read->op, *k.initial, certain, k.indeterminate, low, high,
                final_read->value > high ? "sales the clients were told about were lost" : "stock vanished unsold");
            result.violations.push_back(std::move(v));
        }
    }
    figures[key] = f;
    return std::max<std::int64_t>(0, certain - *k.initial);
}

}  // namespace

bool history_is_stock(const History& history) {
    return std::any_of(history.begin(), history.end(), [](const Op& op) {
        return op.f == fn::kDecrement || op.f == fn::kStockInit || op.f == fn::kStockRead;
    });
}

CheckerResult check_oversell(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kOversell);
    std::map<std::string, KeyStock> keys;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_nemesis() || (op.f != fn::kDecrement && op.f != fn::kStockInit && op.f != fn::kStockRead)) continue;
        KeyStock& k = keys[op.key];
        const bool open = op.is_invoke() && partner[p] == kNoOp;  // no completion: indeterminate
        if (op.f == fn::kDecrement) {
            k.last_decrement_ns = std::max(k.last_decrement_ns, op.time);
            if (open) ++k.indeterminate;
            if (op.is_invoke()) continue;
            if (op.type == OpType::Ok)
                k.sold.push_back(op.index);
            else if (op.type == OpType::Info)
                ++k.indeterminate;
            else if (op.error == err::kSoldOut)
                ++k.sold_out;
            else
                ++k.failed;
        } else if (!op.is_invoke() && op.type == OpType::Ok) {
            const auto n = op.f == fn::kStockInit ? stock_of(op.value) : json_integer<std::int64_t>(op.value);
            if (!n) continue;
            if (op.f == fn::kStockInit && !k.initial) {
                k.initial = n;
                k.init_op = op.index;
            } else if (op.f == fn::kStockRead) {
                k.reads.push_back({history[static_cast<std::size_t>(partner[p])].time, *n, op.index});
            }
        }
    }
    nlohmann::json figures = nlohmann::json::object();
    bool unknown = false;
    std::int64_t sold = 0, indeterminate = 0, initial = 0, oversold = 0, refused = 0;
    for (const auto& [key, k] : keys) {
        oversold += judge(key, k, result, figures);
        unknown = unknown || !k.initial;
        sold += static_cast<std::int64_t>(k.sold.size());
        indeterminate += k.indeterminate;
        initial += k.initial.value_or(0);
        refused += k.sold_out + k.failed;
    }
    const bool nothing_sold = sold == 0;  // no decrement took effect for certain: nothing could be oversold
    result.valid = !result.violations.empty() ? Validity::Invalid
                   : unknown || nothing_sold  ? Validity::Unknown
                                              : Validity::Valid;
    result.stats = {{"keys", figures}, {"sold", sold}, {"indeterminate", indeterminate}, {"oversold", oversold}};
    result.stats["summary"] = fmt::format(
        "{} sold of an initial stock of {} ({} indeterminate), {} oversold, {}", sold, initial, indeterminate, oversold,
        counted(std::count_if(result.violations.begin(), result.violations.end(),
                              [](const Violation& v) { return v.kind == kStockMismatch; }),
                "stock mismatch", "stock mismatches"));
    if (unknown)
        result.stats["unknown_reason"] = "no stock-init completed ok for some key: the initial stock is unknown";
    else if (nothing_sold)
        result.stats["unknown_reason"] =
            fmt::format("no decrement completed ok in {} attempts ({} unknown, {} refused): nothing could be oversold",
                        indeterminate + refused, indeterminate, refused);
    return result;
}

const CheckerDescriptor& oversell_checker() {
    static const CheckerDescriptor descriptor{
        checker_name::kOversell,
        "stock-decrement histories: more sales than stock, and a final stock that does not add up",
        history_is_stock,
        check_oversell,
        stats_summary,
        "nothing was oversold, and the final stock matches the sales"};
    return descriptor;
}

}  // namespace lockcheck
