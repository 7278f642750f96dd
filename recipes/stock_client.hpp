// The StockClient family: a stock counter, not a lock (capability "stock",
// docs/protocol.md; driven by workers/stock_workload.hpp, judged by
// checkers/oversell.hpp). invoke() dispatches the stock ops to the methods
// below; every other op fails "unsupported op '<f>'".
#pragma once

#include <string>

#include "recipes/worker_client.hpp"

namespace lockcheck {

class StockClient : public WorkerClient {
public:
    /// stock-init, decrement and stock-read go to the methods below, with the request's key.
    LockResult invoke(const WorkerRequest& request) final;

    /// Sets the key's initial stock if it has none (idempotent, so every
    /// worker may send it); ok with value {"stock": initial}.
    virtual LockResult stock_init(const std::string& key) = 0;
    /// Sells one if any is left: ok (sold one), fail err::kSoldOut (none
    /// left), info (unknown).
    virtual LockResult decrement(const std::string& key) = 0;
    /// ok with value = the stock left.
    virtual LockResult stock_read(const std::string& key) = 0;
};

}  // namespace lockcheck
