// What the ZooKeeper lock recipes share: the session as the lease, and how a
// ZooKeeper answer becomes a LockResult.
//
// The session timeout is the acquire's ttl_ms, or the recipe option
// session_timeout_ms when set (which must then be >= ttl_ms). A session is
// created at the first acquire and again whenever the timeout asked for
// changes or the session expired. The server must grant at least that much
// (it clamps into [minSessionTimeout, maxSessionTimeout] = [1000, 60000] ms
// on the zookeeper topology): a shorter grant would make the lease shorter
// than ttl_ms, so the acquire fails then, saying why.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/zk_connection.hpp"

namespace lockcheck {

/// The session timeouts the zookeeper topology's servers grant (zoo.cfg
/// minSessionTimeout / maxSessionTimeout, clusters/servers/zookeeper_node.hpp).
inline constexpr std::int64_t kZkMinSessionMs = 1000;
inline constexpr std::int64_t kZkMaxSessionMs = 60'000;

/// Root of every lock node: /lockcheck/<key>.
inline constexpr const char* kZkLockRoot = "/lockcheck";

class ZkLease {
public:
    /// `session_timeout_ms`: the recipe option, when given.
    ZkLease(const std::vector<std::string>& endpoints, std::chrono::milliseconds call_timeout,
            std::optional<std::int64_t> session_timeout_ms);

    /// Makes sure a session covering `ttl_ms` is connected; a fail result
    /// (the acquire was not executed) when not.
    std::optional<LockResult> begin(std::int64_t ttl_ms);
    /// Creates the persistent /lockcheck (and, with `key_node`, /lockcheck/<key>)
    /// unless they exist; a fail result when that does not work (no lock
    /// node was created, so the acquire was not executed).
    std::optional<LockResult> ensure_parents(const std::string& key, bool key_node);
    /// Creates the lock node `path` (`data`, `flags`) under the parents
    /// ensure_parents(key, key_node) made. When the server answers that a
    /// parent is missing (an ensemble that lost what it never synced: a power
    /// loss with forceSync=no), makes the parents again and creates once more,
    /// as Curator's creatingParentsIfNeeded does.
    ZkReply create_under_parents(const std::string& key, bool key_node, const std::string& path,
                                 const std::string& data, int flags);

    /// The result of an acquire that failed with `rc`: info when the request
    /// may have been applied (the session is closed then, so whatever it
    /// created goes with it), fail otherwise.
    LockResult acquire_failure(int rc, const std::string& what);
    /// The same for a release: info when the delete may have been applied;
    /// fail "not-owner" when the session expired (its nodes are gone).
    LockResult release_failure(int rc, const std::string& what);
    /// After a release's delete ended with `rc` that may have been applied:
    /// true when the session is alive again (connected), so the release may
    /// look again and tell for sure (only this session deletes its own node
    /// while the session lives); otherwise the release's final result in
    /// `outcome` (not-owner when the session expired, info when unknown).
    bool may_retry_release(int rc, const std::string& what, LockResult& outcome);
    /// True when the session that created our nodes is gone (never opened,
    /// closed, or expired): its ephemeral nodes are gone too.
    bool session_lost();
    /// What an acquire got, for the report and the witness (docs/protocol.md,
    /// "What the witness reads"): {"session_timeout_ms": granted, "zk_node":
    /// node, "zk_session": the session's id, "create_zxid": the node's czxid,
    /// "grant_zxid": the zxid in the servers' order of the answer that
    /// decided the grant (the create's own zxid, or the pzxid of the children
    /// list that showed the node lowest)}.
    nlohmann::json granted(const std::string& node, std::int64_t create_zxid, std::int64_t grant_zxid) const;

    ZkSession& session() { return session_; }

private:
    ZkSession session_;
    std::optional<std::int64_t> session_timeout_ms_;
    std::vector<std::string> made_;  ///< persistent parents known to exist
};

/// "/lockcheck/<key>".
std::string zk_lock_path(const std::string& key);

}  // namespace lockcheck
