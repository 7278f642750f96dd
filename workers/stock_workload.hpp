// The stock-decrement workload (selected by capability "stock"): not a lock.
// Each slot sets the initial stock of every key once (stock-init,
// idempotent), then repeats `decrement` on a random key with a think time
// between, and when the run stops reads the stock left of every key
// (stock-read), retrying while the server is still coming back. No hold, no
// protected resource: the oversell checker (checkers/oversell.hpp) judges
// these histories.
#pragma once

#include "workers/workload.hpp"

namespace lockcheck {

const WorkloadDescriptor& stock_workload();

}  // namespace lockcheck
