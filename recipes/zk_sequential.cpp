#include "recipes/zk_sequential.hpp"

#include <algorithm>

namespace lockcheck {
namespace {

constexpr const char* kChildPrefix = "lock-";
constexpr std::size_t kSequenceDigits = 10;

std::string sequence_of(const std::string& child) {
    return child.size() >= kSequenceDigits ? child.substr(child.size() - kSequenceDigits) : child;
}

}  // namespace

std::vector<std::string> zk_sorted_by_sequence(std::vector<std::string> children) {
    std::stable_sort(children.begin(), children.end(),
                     [](const std::string& a, const std::string& b) { return sequence_of(a) < sequence_of(b); });
    return children;
}

ZkSequential::ZkSequential(const std::vector<std::string>& endpoints, std::chrono::milliseconds timeout,
                           std::optional<std::int64_t> session_timeout_ms)
    : lease_(endpoints, timeout, session_timeout_ms) {}

LockResult ZkSequential::acquire(const LockRequest& request) {
    if (auto refused = lease_.begin(request.ttl_ms)) return *refused;
    if (auto refused = lease_.ensure_parents(request.key, true)) return *refused;
    auto& zk = lease_.session();
    const std::string parent = zk_lock_path(request.key);
    const ZkReply created = lease_.create_under_parents(request.key, true, parent + "/" + kChildPrefix, request.owner,
                                                        ZOO_EPHEMERAL | ZOO_SEQUENCE);
    if (created.rc != ZOK) return lease_.acquire_failure(created.rc, "create");
    const std::string mine = created.path.substr(parent.size() + 1);
    const auto deadline = std::chrono::steady_clock::now() + zk.call_timeout();
    for (int round = 0; round < 1000 && std::chrono::steady_clock::now() < deadline; ++round) {
        const ZkReply listed = zk.children(parent);
        if (listed.rc != ZOK) return give_up(created.path, "children: " + zk_error_text(listed.rc));
        const auto sorted = zk_sorted_by_sequence(listed.children);
        const auto at = std::find(sorted.begin(), sorted.end(), mine);
        if (at == sorted.end())  // the server removed it: our session ended
            return lease_.acquire_failure(ZSESSIONEXPIRED, "own child " + created.path + " vanished");
        if (at == sorted.begin()) {
            children_[request.owner] = created.path;
            LockResult ok = LockResult::ok(created.stat.czxid);
            ok.value = lease_.granted(created.path, created.stat.czxid, listed.stat.pzxid);
            return ok;
        }
        const std::string predecessor = parent + "/" + *(at - 1);
        const auto seen = zk.changes(predecessor);
        const ZkReply watched = zk.watch_exists(predecessor);
        if (watched.rc == ZNONODE) continue;  // gone already: look again
        if (watched.rc != ZOK) return give_up(created.path, "exists: " + zk_error_text(watched.rc));
        zk.wait_change(predecessor, seen, deadline);
    }
    return give_up(created.path, std::string(err::kHeld));
}

LockResult ZkSequential::give_up(const std::string& path, const std::string& why) {
    const int rc = lease_.session().remove(path, -1).rc;
    if (rc == ZOK || rc == ZNONODE) return LockResult::fail(why == err::kHeld ? why : "gave up: " + why);
    // Our child may still stand in the queue (and become a holder nobody
    // uses): closing the session removes it, at the latest when it expires.
    lease_.session().close();
    return LockResult::info("gave up (" + why + "); deleting own child: " + zk_error_text(rc) + "; session closed");
}

LockResult ZkSequential::release(const LockRequest& request) {
    const auto it = children_.find(request.owner);
    if (it == children_.end()) return LockResult::fail(std::string(err::kNotOwner));
    const std::string path = it->second;
    children_.erase(it);
    if (lease_.session_lost()) return LockResult::fail(std::string(err::kNotOwner));
    int lost = ZOK;
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int rc = lease_.session().remove(path, -1).rc;
        if (rc == ZOK) return LockResult::ok();
        // Gone. First try: our session ended. After a lost delete on a live
        // session: that delete took effect (only we delete our child).
        if (rc == ZNONODE) return attempt == 0 ? LockResult::fail(std::string(err::kNotOwner)) : LockResult::ok();
        LockResult outcome;
        if (!lease_.may_retry_release(rc, "delete", outcome)) return outcome;
        lost = rc;
    }
    return lease_.release_failure(lost, "delete");
}

}  // namespace lockcheck
