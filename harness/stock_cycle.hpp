// The stock-decrement workload (capability "stock"): not a lock. Each slot
// sets the initial stock of every key once (stock-init, idempotent), then
// repeats `decrement` on a random key with a think time between, and when the
// run stops reads the stock left of every key (stock-read), retrying while
// the server is still coming back. No hold, no protected resource: the
// oversell checker (checkers/oversell.hpp) judges these histories.
#pragma once

#include <cstdint>
#include <stop_token>
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
    /// The run's interrupt (Ctrl-C): the final stock-reads stop retrying then.
    std::stop_token interrupt = {};
};

/// Runs until a stop is requested (which also ends a think time at once) or
/// the recorder is full; every loop is bounded.
void run_stock_cycles(SlotSession& session, const HistoryRecorder& recorder, const StockCycleOptions& options, int slot,
                      const std::stop_token& stop);

}  // namespace lockcheck
