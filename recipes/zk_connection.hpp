// One ZooKeeper session through the C client (zookeeper_mt), with what lock
// recipes need: the session is the lease.
//
// - ensure(ms) makes sure a session whose timeout is `ms` is connected:
//   created lazily, recreated when it expired or when `ms` changes, and
//   refused when the server negotiated a shorter timeout than asked for
//   (ZooKeeper clamps it into [minSessionTimeout, maxSessionTimeout]).
// - Every call is asynchronous underneath and waited for at most the call
//   timeout: a server that does not answer gives ZOPERATIONTIMEOUT, never a
//   worker stuck for 2/3 of a long session timeout.
// - Watches: watch_exists() sets a one-shot watch on a path; wait_change()
//   waits, bounded, until a watch on that path fires (or the session ends).
// The client library's own log goes to stderr (the worker's log file) at WARN:
// stdout is the worker protocol's channel.
#pragma once

#include <zookeeper/zookeeper.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockcheck {

/// The answer to one call: `rc` is ZOK or a ZooKeeper error code.
struct ZkReply {
    int rc = ZOK;
    std::string path;                   ///< create: the node created (with its sequence suffix)
    std::string data;                   ///< get
    std::vector<std::string> children;  ///< children
    Stat stat{};                        ///< create, get, exists, children (the parent's: its pzxid)
};

/// True when a request that ended with `rc` may have been applied by the
/// server (connection lost, timed out, session ended while it was in flight);
/// false when `rc` is ZOK or a definite answer (ZNODEEXISTS, ZNONODE, ...).
bool zk_may_have_applied(int rc);

/// "ZCONNECTIONLOSS (connection loss)"-style text for logs and op errors.
std::string zk_error_text(int rc);

class ZkSession {
public:
    /// `endpoints`: "ip:port" of every server; `call_timeout`: the bound on
    /// each call (and, with 2 s added, on connecting).
    ZkSession(const std::vector<std::string>& endpoints, std::chrono::milliseconds call_timeout);
    ~ZkSession();
    ZkSession(const ZkSession&) = delete;
    ZkSession& operator=(const ZkSession&) = delete;

    /// Connects a session with timeout `timeout_ms` unless one is connected
    /// already. Returns nullopt when connected, else why not (no session, or
    /// a negotiated timeout shorter than asked: the session is closed then).
    std::optional<std::string> ensure(int timeout_ms);
    /// True while the current session is known to the client as expired.
    bool expired() const;
    /// True when there is a handle (connected or reconnecting).
    bool open() const { return handle_ != nullptr; }
    /// Closes the session (its ephemeral nodes go with it). Idempotent.
    void close();
    /// Where the session stands after a lost connection: the client library
    /// reconnects on its own and learns there whether the ensemble expired
    /// the session. Polls (every 10 ms) until it is connected or expired, at
    /// most the call timeout.
    enum class Settled { Connected, Expired, Unknown };
    Settled settle();
    /// The session id, 0 without a session.
    std::int64_t session_id() const;
    /// The timeout the server granted (ms), 0 without a session.
    int negotiated_timeout_ms() const;

    ZkReply create(const std::string& path, const std::string& data, int flags);
    ZkReply remove(const std::string& path, int version);
    ZkReply get(const std::string& path);
    /// The children of `path` and its Stat (getChildren2): stat.pzxid is the
    /// zxid of the last change to them that this answer reflects.
    ZkReply children(const std::string& path);
    /// exists() that leaves a one-shot watch on `path` (rc ZOK: it exists,
    /// ZNONODE: it does not; the watch is set in both cases).
    ZkReply watch_exists(const std::string& path);
    /// How many watch events `path` has seen in this session.
    std::uint64_t changes(const std::string& path) const;
    /// Waits until `path` has seen more than `seen` watch events, the session
    /// ends, or `deadline`; true when an event came.
    bool wait_change(const std::string& path, std::uint64_t seen, std::chrono::steady_clock::time_point deadline);

    std::chrono::milliseconds call_timeout() const { return call_timeout_; }

    struct State;  ///< what the client library's threads report to (internal)

private:
    std::string hosts_;
    std::chrono::milliseconds call_timeout_;
    zhandle_t* handle_ = nullptr;
    int timeout_ms_ = 0;
    std::unique_ptr<State> state_;

    /// Issues one asynchronous request (`issue` gets the completion's data
    /// pointer) and waits for its completion, at most call_timeout_.
    template <typename Issue>
    ZkReply call(Issue&& issue);
};

}  // namespace lockcheck
