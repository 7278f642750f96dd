#include "recipes/stock_client.hpp"

namespace lockcheck {

LockResult StockClient::invoke(const WorkerRequest& request) {
    return dispatch(request, {{fn::kStockInit, [this](const WorkerRequest& r) { return stock_init(r.key); }},
                              {fn::kDecrement, [this](const WorkerRequest& r) { return decrement(r.key); }},
                              {fn::kStockRead, [this](const WorkerRequest& r) { return stock_read(r.key); }}});
}

}  // namespace lockcheck
