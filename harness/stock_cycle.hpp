// The stock-decrement workload (capability "stock"): not a lock. Each slot
// sets the initial stock of every key once (stock-init, idempotent), then
// repeats `decrement` on a random key with a think time between, and when the
// run stops reads the stock left of every key (stock-read), retrying while
// the server is still coming back. No hold, no protected resource: the
// oversell checker (checkers/oversell.hpp) judges these histories.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/history_recorder.hpp"
#include "harness/slot_session.hpp"
#include "harness/spec.hpp"

namespace lockcheck {

struct StockCycleOptions {
    std::vector<std::string> keys;
    Range think_ms;
    std::uint64_t seed = 0;
};

/// Runs until `stop` is set or the recorder is full; every loop is bounded.
void run_stock_cycles(SlotSession& session, const HistoryRecorder& recorder, const StockCycleOptions& options, int slot,
                      const std::atomic<bool>& stop);

}  // namespace lockcheck
