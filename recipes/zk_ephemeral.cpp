#include "recipes/zk_ephemeral.hpp"

namespace lockcheck {

ZkEphemeral::ZkEphemeral(const std::vector<std::string>& endpoints, std::chrono::milliseconds timeout,
                         std::optional<std::int64_t> session_timeout_ms)
    : lease_(endpoints, timeout, session_timeout_ms) {}

LockResult ZkEphemeral::acquire(const LockRequest& request) {
    if (auto refused = lease_.begin(request.ttl_ms)) return *refused;
    auto& zk = lease_.session();
    if (auto refused = lease_.ensure_parents(request.key, false)) return *refused;
    const std::string path = zk_lock_path(request.key);
    for (int attempt = 0; attempt < 2; ++attempt) {
        const ZkReply created = lease_.create_under_parents(request.key, false, path, request.owner, ZOO_EPHEMERAL);
        if (created.rc == ZOK) {
            LockResult ok = LockResult::ok(created.stat.czxid);
            ok.value = lease_.granted(path, created.stat.czxid, created.stat.czxid);
            return ok;
        }
        if (created.rc != ZNODEEXISTS) return lease_.acquire_failure(created.rc, "create");
        if (attempt == 1) break;
        // Held: wait (bounded) for the holder's node to go, then try once more.
        const auto seen = zk.changes(path);
        const ZkReply watched = zk.watch_exists(path);
        if (watched.rc == ZNONODE) continue;
        if (watched.rc != ZOK)
            return LockResult::fail("exists: " + zk_error_text(watched.rc));  // a read: nothing taken
        if (!zk.wait_change(path, seen, std::chrono::steady_clock::now() + zk.call_timeout())) break;
    }
    return LockResult::fail(std::string(err::kHeld));
}

LockResult ZkEphemeral::release(const LockRequest& request) {
    // Our session ended: the server removed its ephemeral node, ours included.
    if (lease_.session_lost()) return LockResult::fail(std::string(err::kNotOwner));
    auto& zk = lease_.session();
    const std::string path = zk_lock_path(request.key);
    int lost = ZOK;  // a delete whose outcome is unknown
    for (int attempt = 0; attempt < 2; ++attempt) {
        const ZkReply node = zk.get(path);
        if (node.rc != ZOK && node.rc != ZNONODE) {  // a read: it deleted nothing
            if (lost != ZOK) return lease_.release_failure(lost, "delete");
            // Connection lost (say, after a pause): expired means our node is gone.
            const auto settled = node.rc == ZSESSIONEXPIRED     ? ZkSession::Settled::Expired
                                 : zk_may_have_applied(node.rc) ? zk.settle()
                                                                : ZkSession::Settled::Unknown;
            if (settled == ZkSession::Settled::Expired) return lease_.release_failure(ZSESSIONEXPIRED, "get");
            if (settled == ZkSession::Settled::Connected && attempt == 0) continue;
            return LockResult::fail("get: " + zk_error_text(node.rc));
        }
        const bool ours = node.rc == ZOK && node.stat.ephemeralOwner == zk.session_id() && node.data == request.owner;
        // Not ours. First try: we did not hold it. After a lost delete on a
        // live session: that delete took effect (only we delete our node).
        if (!ours) return lost == ZOK ? LockResult::fail(std::string(err::kNotOwner)) : LockResult::ok();
        const int rc = zk.remove(path, node.stat.version).rc;
        if (rc == ZOK) return LockResult::ok();
        if (rc == ZNONODE || rc == ZBADVERSION)  // gone since the get: our session ended, or our lost delete landed
            return lost == ZOK ? LockResult::fail(std::string(err::kNotOwner)) : LockResult::ok();
        LockResult outcome;
        if (!lease_.may_retry_release(rc, "delete", outcome)) return outcome;
        lost = rc;
    }
    return lease_.release_failure(lost, "delete");
}

}  // namespace lockcheck
