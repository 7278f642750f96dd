// Oversell checker for stock-decrement histories (capability "stock",
// workers/stock_workload.hpp). Per key:
//   - initial stock: the value {"stock": N} of the first stock-init that
//     completed ok (without one the verdict is unknown);
//   - sales: decrements that completed ok (certain), info or without a
//     completion (indeterminate: may or may not have sold one), fail
//     "sold-out" (certainly sold nothing because none was left);
//   - "oversell": more certain sales than the initial stock;
//   - "stock-mismatch": the final stock - the last stock-read ok whose invoke
//     came after every decrement of the key had completed - lies outside
//     [initial - certain - indeterminate, initial - certain] (clamped at 0):
//     above it, sales the clients were told about were lost (a crash that
//     forgot committed decrements); below it, stock vanished without a sale.
// Indeterminate decrements are never counted as certain sales.
#pragma once

#include "checkers/checker_descriptor.hpp"
#include "core/history.hpp"

namespace lockcheck {

inline constexpr const char* kOversell = "oversell";
inline constexpr const char* kStockMismatch = "stock-mismatch";

/// True when the history holds stock ops (stock-init, decrement, stock-read).
bool history_is_stock(const History& history);

/// `partner` is pair_ops(history).
CheckerResult check_oversell(const History& history, const std::vector<std::int64_t>& partner);

/// The descriptor (checkers/checker_descriptor.hpp): judges stock histories (history_is_stock).
const CheckerDescriptor& oversell_checker();

}  // namespace lockcheck
