// Recipe "etcd-lease-lock": etcd's own lease + transaction lock, through the
// v3 HTTP/JSON gateway (recipes/etcd_http.hpp).
//
// acquire: grant a lease of ceil(ttl_ms / 1000) s (etcd leases are whole
//          seconds, and etcd raises a TTL below its minimum: never shorter
//          than asked; a grant shorter than ttl_ms is refused), then one txn:
//          if create_revision(key) == 0, put key = owner with the lease, else
//          read the key. ok: token = the txn's revision (the key's create
//          revision: grows with every grant, a fencing token), value
//          {"lease": id, "lease_ttl_s": granted}. Busy: fail held (value
//          {"holder": owner seen}) and the lease is revoked.
// renew:   lease keepalive; ok while the lease lives (value {"lease_ttl_s",
//          "revision": the reply's header revision}),
//          fail not-owner once it has expired (TTL <= 0 in the reply). A
//          keepalive is idempotent: after a timeout it is sent again to the
//          next member (at most one try per member).
// release: txn: if value(key) == owner, delete the key (ok, value {"deleted":
//          1, "revision": the delete's}), else fail
//          not-owner; then the lease is revoked either way.
// Errors: unreachable members = fail (not executed); a timeout, a broken reply
// or an error etcd may have applied (leader changed, request timed out) on
// the txn = info. The grant alone never takes the lock: any grant failure is fail.
// Promise: mutual exclusion while the holder keeps renewing its lease in time.
// Breaks when the holder pauses past its lease (docs/recipes/etcd-lease-lock.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "recipes/etcd_http.hpp"
#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"

namespace lockcheck {

/// The lease (whole seconds) that covers `ttl_ms`: ceil(ttl_ms / 1000), at least 1.
std::int64_t etcd_lease_seconds(std::int64_t ttl_ms);

class EtcdLeaseLock : public LockClient {
public:
    /// `endpoints`: the members' client addresses ("ip:2379").
    EtcdLeaseLock(const std::vector<std::string>& endpoints, std::chrono::milliseconds timeout);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;
    LockResult renew(const LockRequest& request) override;

private:
    EtcdHttp http_;
    std::map<std::string, std::int64_t> leases_;  ///< owner -> its lease, while it may hold the lock

    /// Best effort: a failure is one line on stderr (the worker's log), not an op.
    void revoke(std::int64_t lease);
};

/// The descriptor of this recipe (recipes/etcd_lease_lock_descriptor.cpp).
RecipeDescriptor etcd_lease_lock_recipe();

}  // namespace lockcheck
