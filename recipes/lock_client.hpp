// The LockClient family: the lock recipes as the worker process drives them.
// One implementation per recipe; invoke() dispatches the lock ops (acquire,
// release, renew, read, write) to the methods below, so a recipe implements
// only what a lock does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recipes/client_hold.hpp"
#include "recipes/worker_client.hpp"

namespace lockcheck {

struct LockRequest {
    std::string key;
    std::string owner;        ///< fresh per acquire attempt, never reused
    std::int64_t ttl_ms = 0;  ///< lease asked for (acquire, renew)
};

class LockClient : public WorkerClient {
public:
    /// acquire, release and renew go to the methods of the same name; hold
    /// works on the worker's own clock within the lock's validity
    /// (recipes/client_hold.hpp); read
    /// and write are checkpoints answered ok at once, or - when the client
    /// owns the resource - go to read() and write() (a write needs an
    /// integer value). Any other op fails "unsupported op '<f>'".
    LockResult invoke(const WorkerRequest& request) final;
    /// "hold", then "resource" when owns_resource(), then "no-lease" when !has_lease().
    std::vector<std::string> capabilities() const override;

    virtual LockResult acquire(const LockRequest& request) = 0;
    virtual LockResult release(const LockRequest& request) = 0;
    /// Extends the lease of a held lock; recipes without renewal fail "unsupported".
    /// ok: the lease was extended; fail not-owner: the caller no longer held it.
    virtual LockResult renew(const LockRequest&) { return LockResult::fail("unsupported"); }

    /// Capability "resource": true when the worker performs the protected
    /// read/write itself (inside the lock's transaction) instead of answering
    /// them as checkpoints; may depend on the recipe's options.
    virtual bool owns_resource() const { return false; }
    /// Called only when owns_resource(). read: ok with `value` = the
    /// register's value. write: ok only when `value` certainly took effect,
    /// fail when it certainly did not, info when unknown.
    virtual LockResult read(const LockRequest&) { return LockResult::fail("unsupported"); }
    virtual LockResult write(const LockRequest&, std::int64_t /*value*/) { return LockResult::fail("unsupported"); }

    /// False for a lock without a lease (held until released, however long
    /// that takes): the worker then announces capability "no-lease" and the
    /// controller records its acquires without ttl_ms, so the checkers judge
    /// every overlap as one within the (unbounded) lease.
    virtual bool has_lease() const { return true; }

private:
    ClientHolds holds_;
};

}  // namespace lockcheck
