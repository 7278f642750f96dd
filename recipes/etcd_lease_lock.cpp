#include "recipes/etcd_lease_lock.hpp"

#include <iostream>

#include "core/base64.hpp"

namespace lockcheck {
namespace {

using nlohmann::json;

/// fail (not executed) or info (may have run) for a response that is not a usable reply.
LockResult failure(const EtcdResponse& r, const std::string& step) {
    switch (r.kind) {
        case EtcdResponse::Kind::NotSent: return LockResult::fail("not executed: " + r.error);
        case EtcdResponse::Kind::Unknown: return LockResult::info(step + ": " + r.error);
        case EtcdResponse::Kind::ErrorReply: {
            const std::string text = step + ": etcd error " + std::to_string(r.code) + ": " + r.error;
            return etcd_error_is_definite(r.code) ? LockResult::fail(text) : LockResult::info(text);
        }
        case EtcdResponse::Kind::Reply: break;
    }
    return LockResult::info(step + ": unexpected reply");
}

json acquire_txn(const std::string& key, const std::string& owner, std::int64_t lease) {
    const std::string k = base64_encode(key);
    return {
        {"compare", json::array({{{"target", "CREATE"}, {"key", k}, {"result", "EQUAL"}, {"create_revision", "0"}}})},
        {"success", json::array({{{"request_put",
                                   {{"key", k}, {"value", base64_encode(owner)}, {"lease", std::to_string(lease)}}}}})},
        {"failure", json::array({{{"request_range", {{"key", k}}}}})}};
}

json release_txn(const std::string& key, const std::string& owner) {
    const std::string k = base64_encode(key);
    return {{"compare",
             json::array({{{"target", "VALUE"}, {"key", k}, {"result", "EQUAL"}, {"value", base64_encode(owner)}}})},
            {"success", json::array({{{"request_delete_range", {{"key", k}}}}})}};
}

json lease_id(std::int64_t lease) { return {{"ID", std::to_string(lease)}}; }

}  // namespace

std::int64_t etcd_lease_seconds(std::int64_t ttl_ms) { return ttl_ms <= 1000 ? 1 : (ttl_ms + 999) / 1000; }

EtcdLeaseLock::EtcdLeaseLock(const std::vector<std::string>& endpoints, std::chrono::milliseconds timeout)
    : http_(endpoints, timeout) {}

void EtcdLeaseLock::revoke(std::int64_t lease) {
    const auto r = http_.post("/v3/lease/revoke", lease_id(lease));
    if (r.kind == EtcdResponse::Kind::Reply || (r.kind == EtcdResponse::Kind::ErrorReply && r.code == 5)) return;
    // Not an op of the history: a lease left behind only keeps its key until it expires. Said in workers/worker-N.log.
    std::cerr << "etcd-lease-lock: revoke of lease " << lease << " failed (it will expire): "
              << (r.kind == EtcdResponse::Kind::ErrorReply ? "etcd error " + std::to_string(r.code) + ": " : "")
              << r.error << std::endl;
}

LockResult EtcdLeaseLock::acquire(const LockRequest& request) {
    const auto granted = http_.post("/v3/lease/grant", {{"TTL", std::to_string(etcd_lease_seconds(request.ttl_ms))}});
    if (granted.kind != EtcdResponse::Kind::Reply)  // a lease alone never takes the lock
        return LockResult::fail("lease grant: " + (granted.error.empty() ? std::string("failed") : granted.error));
    LeaseGrant lease;
    try {
        lease = parse_lease_grant(granted.body);
    } catch (const EtcdReplyError& e) {
        return LockResult::fail(e.what());
    }
    if (lease.ttl_s * 1000 < request.ttl_ms) {
        revoke(lease.id);
        return LockResult::fail("etcd granted a " + std::to_string(lease.ttl_s) + " s lease, shorter than ttl_ms " +
                                std::to_string(request.ttl_ms));
    }

    const auto response = http_.post("/v3/kv/txn", acquire_txn(request.key, request.owner, lease.id));
    if (response.kind != EtcdResponse::Kind::Reply) {
        LockResult result = failure(response, "acquire txn");
        if (result.type == OpType::Fail) revoke(lease.id);
        return result;
    }
    TxnOutcome txn;
    try {
        txn = parse_txn(response.body);
    } catch (const EtcdReplyError& e) {
        return LockResult::info(std::string("acquire txn: ") + e.what());
    }
    if (!txn.succeeded) {
        revoke(lease.id);
        LockResult held = LockResult::fail(std::string(err::kHeld));
        if (txn.holder) held.value = {{"holder", *txn.holder}};
        return held;
    }
    leases_[request.owner] = lease.id;
    LockResult ok = LockResult::ok(txn.revision);
    // The txn that put the key decided the grant: its revision is the key's create revision and the grant's
    // place in etcd's order (the witness's anchors, docs/protocol.md).
    ok.value = {{"key", request.key},
                {"lease", lease.id},
                {"lease_ttl_s", lease.ttl_s},
                {"create_revision", txn.revision},
                {"grant_revision", txn.revision}};
    return ok;
}

LockResult EtcdLeaseLock::renew(const LockRequest& request) {
    const auto lease = leases_.find(request.owner);
    if (lease == leases_.end()) return LockResult::fail(std::string(err::kNotOwner));
    // A keep-alive is idempotent, so unlike a txn it may be repeated after a timeout, on the next
    // member, as etcd's own client keeps sending them until one is answered.
    EtcdResponse response;
    for (std::size_t attempt = 0; attempt < http_.endpoint_count(); ++attempt) {
        response = http_.post("/v3/lease/keepalive", lease_id(lease->second));
        const bool may_retry =
            response.kind == EtcdResponse::Kind::Unknown ||
            (response.kind == EtcdResponse::Kind::ErrorReply && !etcd_error_is_definite(response.code));
        if (!may_retry) break;
    }
    if (response.kind != EtcdResponse::Kind::Reply) return failure(response, "keepalive");
    try {
        const std::int64_t ttl = parse_keepalive_ttl(response.body);
        if (ttl <= 0) return LockResult::fail(std::string(err::kNotOwner));
        LockResult ok = LockResult::ok();
        ok.value = {{"lease_ttl_s", ttl}};
        if (const auto revision = keepalive_revision(response.body)) ok.value["revision"] = *revision;
        return ok;
    } catch (const EtcdReplyError& e) {
        return LockResult::info(e.what());
    }
}

LockResult EtcdLeaseLock::release(const LockRequest& request) {
    const auto response = http_.post("/v3/kv/txn", release_txn(request.key, request.owner));
    LockResult result = LockResult::info("release txn: unexpected reply");
    if (response.kind != EtcdResponse::Kind::Reply) {
        result = failure(response, "release txn");
    } else {
        try {
            const TxnOutcome txn = parse_txn(response.body);
            result = txn.succeeded ? LockResult::ok() : LockResult::fail(std::string(err::kNotOwner));
            if (txn.succeeded) result.value = {{"deleted", 1}, {"revision", txn.revision}};  // the delete's revision
        } catch (const EtcdReplyError& e) {
            result = LockResult::info(std::string("release txn: ") + e.what());
        }
    }
    if (const auto lease = leases_.find(request.owner); lease != leases_.end()) {
        revoke(lease->second);  // its key is gone or was never ours any more; the lease has no use left
        leases_.erase(lease);
    }
    return result;
}

}  // namespace lockcheck
