// The LockClient interface: one lock recipe as a client uses it. One
// implementation per recipe; the worker process drives exactly one instance.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/op.hpp"

namespace lockcheck {

struct LockRequest {
    std::string key;
    std::string owner;        ///< fresh per acquire attempt, never reused
    std::int64_t ttl_ms = 0;  ///< lease asked for (acquire, renew)
};

/// ok: took effect (token when the recipe has one); fail: certainly did not
/// (error err::kHeld for a busy lock, err::kNotOwner for a release by a
/// non-owner, anything else for "not executed"); info: may have taken effect.
/// `value` is evidence the recipe reports with its answer (null when none),
/// e.g. the owner a release removed; it goes into the completion's value.
struct LockResult {
    OpType type = OpType::Info;
    std::optional<std::int64_t> token;
    std::optional<std::string> error;
    nlohmann::json value;

    static LockResult ok(std::optional<std::int64_t> token = {}) { return {OpType::Ok, token, std::nullopt, nullptr}; }
    static LockResult fail(std::string error) { return {OpType::Fail, std::nullopt, std::move(error), nullptr}; }
    static LockResult info(std::string error) { return {OpType::Info, std::nullopt, std::move(error), nullptr}; }
};

class LockClient {
public:
    virtual ~LockClient() = default;
    virtual LockResult acquire(const LockRequest& request) = 0;
    virtual LockResult release(const LockRequest& request) = 0;
    /// Extends the lease of a held lock; recipes without renewal fail "unsupported".
    /// ok: the lease was extended; fail not-owner: the caller no longer held it.
    virtual LockResult renew(const LockRequest&) { return LockResult::fail("unsupported"); }

    /// Capabilities this instance adds to its recipe's RecipeInfo::supports,
    /// when they depend on the recipe's options (e.g. "resource" for
    /// mysql-for-update with resource "inside"). Announced in the hello.
    virtual std::vector<std::string> extra_supports() const { return {}; }

    /// Capability "resource": the worker performs the protected read/write
    /// itself (inside the lock's transaction) instead of answering them as
    /// checkpoints. read: ok with `value` = the register's value. write: ok
    /// only when `value` certainly took effect, fail when it certainly did
    /// not, info when unknown. Without the capability these are never called.
    virtual LockResult read(const LockRequest&) { return LockResult::fail("unsupported"); }
    virtual LockResult write(const LockRequest&, std::int64_t /*value*/) { return LockResult::fail("unsupported"); }

    /// Capability "stock" (a non-lock workload, docs/protocol.md):
    /// stock_init sets the initial stock once (idempotent; ok with value
    /// {"stock": initial}); decrement sells one (ok), fails err::kSoldOut when
    /// none is left; stock_read answers ok with value = the stock left.
    virtual LockResult stock_init(const LockRequest&) { return LockResult::fail("unsupported"); }
    virtual LockResult decrement(const LockRequest&) { return LockResult::fail("unsupported"); }
    virtual LockResult stock_read(const LockRequest&) { return LockResult::fail("unsupported"); }
    /// False for a lock without a lease (held until released, however long
    /// that takes): the worker then announces capability "no-lease" and the
    /// controller records its acquires without ttl_ms, so the checkers judge
    /// every overlap as one within the (unbounded) lease.
    virtual bool has_lease() const { return true; }
};

}  // namespace lockcheck
