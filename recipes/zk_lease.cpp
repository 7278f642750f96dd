#include "recipes/zk_lease.hpp"

#include <algorithm>
#include <limits>

namespace lockcheck {

ZkLease::ZkLease(const std::vector<std::string>& endpoints, std::chrono::milliseconds call_timeout,
                 std::optional<std::int64_t> session_timeout_ms)
    : session_(endpoints, call_timeout), session_timeout_ms_(session_timeout_ms) {}

std::string zk_lock_path(const std::string& key) { return std::string(kZkLockRoot) + "/" + key; }

std::optional<LockResult> ZkLease::begin(std::int64_t ttl_ms) {
    const std::int64_t want = session_timeout_ms_.value_or(ttl_ms);
    if (want < ttl_ms)
        return LockResult::fail("recipe option session_timeout_ms (" + std::to_string(want) +
                                " ms) is shorter than the acquire's ttl_ms (" + std::to_string(ttl_ms) +
                                " ms): the lease would end before the lease the history assumes");
    if (want <= 0 || want > std::numeric_limits<int>::max())
        return LockResult::fail("session timeout " + std::to_string(want) + " ms is out of range");
    if (auto error = session_.ensure(static_cast<int>(want))) return LockResult::fail(*error);
    return std::nullopt;
}

std::optional<LockResult> ZkLease::ensure_parents(const std::string& key, bool key_node) {
    std::vector<std::string> paths{kZkLockRoot};
    if (key_node) paths.push_back(zk_lock_path(key));
    for (const auto& path : paths) {
        if (std::find(made_.begin(), made_.end(), path) != made_.end()) continue;
        const int rc = session_.create(path, "", 0).rc;
        if (rc != ZOK && rc != ZNODEEXISTS) return LockResult::fail("create " + path + ": " + zk_error_text(rc));
        made_.push_back(path);  // persistent: it stays for the rest of the run
    }
    return std::nullopt;
}

ZkReply ZkLease::create_under_parents(const std::string& key, bool key_node, const std::string& path,
                                      const std::string& data, int flags) {
    ZkReply created = session_.create(path, data, flags);
    if (created.rc != ZNONODE) return created;
    made_.clear();  // what we made is gone
    if (ensure_parents(key, key_node)) return created;
    return session_.create(path, data, flags);
}

LockResult ZkLease::acquire_failure(int rc, const std::string& what) {
    if (!zk_may_have_applied(rc)) return LockResult::fail(what + ": " + zk_error_text(rc));
    session_.close();  // whatever the request created is ephemeral: it goes with the session
    return LockResult::info(what + ": " + zk_error_text(rc) + "; session closed");
}

LockResult ZkLease::release_failure(int rc, const std::string& what) {
    if (rc == ZSESSIONEXPIRED) {  // the ensemble removed the session's nodes: whatever the delete did, ours is gone
        session_.close();
        return LockResult::fail(std::string(err::kNotOwner));
    }
    if (!zk_may_have_applied(rc)) return LockResult::fail(what + ": " + zk_error_text(rc));
    session_.close();
    return LockResult::info(what + ": " + zk_error_text(rc) + "; session closed");
}

bool ZkLease::may_retry_release(int rc, const std::string& what, LockResult& outcome) {
    if (!zk_may_have_applied(rc)) {
        outcome = release_failure(rc, what);
        return false;
    }
    const auto settled = rc == ZSESSIONEXPIRED ? ZkSession::Settled::Expired : session_.settle();
    if (settled == ZkSession::Settled::Connected) return true;
    outcome = release_failure(settled == ZkSession::Settled::Expired ? ZSESSIONEXPIRED : rc, what);
    return false;
}

bool ZkLease::session_lost() {
    if (session_.open() && !session_.expired()) return false;
    session_.close();
    return true;
}

nlohmann::json ZkLease::granted(const std::string& node, std::int64_t create_zxid, std::int64_t grant_zxid) const {
    return nlohmann::json{{"session_timeout_ms", session_.negotiated_timeout_ms()},
                          {"zk_node", node},
                          {"zk_session", session_.session_id()},
                          {"create_zxid", create_zxid},
                          {"grant_zxid", grant_zxid}};
}

}  // namespace lockcheck
