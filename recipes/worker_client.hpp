// The WorkerClient interface: what the worker process (recipes/worker_main.cpp)
// drives. Every request after init goes through one call, invoke(), as in
// Jepsen's single `invoke!`: the worker process has no branch per op. Each
// workload is a family of clients that serves its own ops:
//   recipes/lock_client.hpp   the lock recipes: acquire, release, renew, read, write;
//   recipes/stock_client.hpp  the stock counter: stock-init, decrement, stock-read;
//   recipes/unique_id_client.hpp  the id generator: generate-id.
// A new workload (its own ops, its own capability) adds a family of its own
// and changes neither of these nor the worker process (docs/design.md,
// "Where a new piece goes").
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/op.hpp"
#include "recipes/protocol.hpp"

namespace lockcheck {

/// The outcome of one request, whatever the workload (the name is the lock
/// recipes', which came first). ok: took effect (token when the recipe has
/// one); fail: certainly did not (error err::kHeld for a busy lock,
/// err::kNotOwner for a release by a non-owner, anything else for "not
/// executed"); info: may have taken effect. `value` is evidence the client
/// reports with its answer (null when none), e.g. the owner a release removed;
/// it goes into the completion's value.
struct LockResult {
    OpType type = OpType::Info;
    std::optional<std::int64_t> token;
    std::optional<std::string> error;
    nlohmann::json value;
    /// An acquire's or renew's ok: what was left of the lease when the grant
    /// arrived, as the client computed it (Redlock's validity time); negative:
    /// already expired. Reported as `valid_ms` (docs/protocol.md).
    std::optional<std::int64_t> valid_ms = std::nullopt;

    static LockResult ok(std::optional<std::int64_t> token = {}) { return {OpType::Ok, token, std::nullopt, nullptr}; }
    static LockResult fail(std::string error) { return {OpType::Fail, std::nullopt, std::move(error), nullptr}; }
    static LockResult info(std::string error) { return {OpType::Info, std::nullopt, std::move(error), nullptr}; }
};

class WorkerClient {
public:
    virtual ~WorkerClient() = default;

    /// Performs one request (`request.f` names the op, docs/protocol.md) and
    /// answers it. An op the client does not serve fails "unsupported op '<f>'".
    virtual LockResult invoke(const WorkerRequest& request) = 0;

    /// Capabilities this instance announces in its hello in addition to its
    /// recipe's (RecipeInfo::supports), when they depend on the instance: its
    /// options (e.g. "resource" for mysql-for-update with resource "inside")
    /// or its kind (e.g. "no-lease" for a lock without a lease).
    virtual std::vector<std::string> capabilities() const { return {}; }
};

/// One op a client serves: its name (WorkerRequest::f) and what performs it.
struct OpHandler {
    std::string_view f;
    std::function<LockResult(const WorkerRequest&)> perform;
};

/// What the handler for `request.f` answers; when no handler serves it, a
/// fail "unsupported op '<f>'" (a definite "not executed").
LockResult dispatch(const WorkerRequest& request, std::initializer_list<OpHandler> handlers);

}  // namespace lockcheck
