// A lock history placed in ZooKeeper's own order (issue 42): each lock node
// in the transaction log (created by which session, removed at which zxid and
// why), each grant's zxid, and the zxid clock (checkers/revision_clock.hpp).
// What the witness decides from it is checkers/zk_witness.hpp.
//
// What the clients report (docs/protocol.md, "What the witness reads"), all
// optional, in an acquire's ok value: `zk_node` (the node it was granted
// on), `zk_session` (its session id), `create_zxid` (the node's czxid) and
// `grant_zxid` (the zxid of the answer that decided the grant: the create's,
// or the pzxid of the children list that showed the node lowest).
//
// Anchors of the clock: a create_zxid was assigned within its acquire, so it
// is a full anchor [invoke, ok]. A grant_zxid from a read is only a lower
// bound of what the answering server had applied (a follower may lag, and
// other txns may have come after it), so it only says that the txns up to
// it came before the ok.
//
// Why a node went: `Released` when its own session deleted it,
// `DeletedByOther` when another session did, `Expired` when its session's
// close was the server's (cxid 0: the session tracker expired it), and
// `ClosedByClient` when its client closed the session.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checkers/revision_clock.hpp"
#include "checkers/server_record.hpp"
#include "core/history.hpp"

namespace lockcheck {

namespace zk_witness_field {
inline constexpr const char* kNode = "zk_node";
inline constexpr const char* kSession = "zk_session";
inline constexpr const char* kCreateZxid = "create_zxid";
inline constexpr const char* kGrantZxid = "grant_zxid";
}  // namespace zk_witness_field

enum class NodeEnd { Alive, Released, DeletedByOther, Expired, ClosedByClient };

/// One incarnation of a node in the log: from its create to its removal.
struct NodeLife {
    std::string path;
    std::string owner;         ///< its data when created
    std::int64_t session = 0;  ///< the session that created it (an ephemeral node's owner)
    bool ephemeral = false;
    std::int64_t created = 0;  ///< zxid
    std::int64_t removed = 0;  ///< zxid; 0 while alive at the record's end
    NodeEnd end = NodeEnd::Alive;
};

/// "deleted by its own session", "deleted by another session", "removed when
/// its session expired on the server", "removed when its client closed its session", "alive".
std::string_view node_end_words(NodeEnd end);

/// What an acquire's ok reported of its grant.
struct ZkGrant {
    std::string node;
    std::optional<std::int64_t> session;
    std::optional<std::int64_t> created;  ///< create_zxid
    std::optional<std::int64_t> zxid;     ///< grant_zxid
};

class ZkOrder {
public:
    /// `partner` is pair_ops(history); `record` was read (record.read).
    ZkOrder(const History& history, const std::vector<std::int64_t>& partner, const ServerRecord& record);
    /// What `owner`'s acquire reported, or null when it reported no node.
    const ZkGrant* grant(std::string_view owner) const;
    /// The node `owner` was granted on: the incarnation of its zk_node created
    /// at its create_zxid, else the last one created at or before its
    /// grant_zxid; null when the record has none.
    const NodeLife* granted_node(std::string_view owner) const;
    const RevisionClock& clock() const { return clock_; }
    std::size_t nodes() const { return lives_.size(); }
    /// Whether a fault moved the servers' clocks in the run (clock-skew):
    /// then the ensemble may have expired sessions whose clients were still
    /// pinging, and an expiry proves nothing about the holder.
    bool server_clocks_moved() const { return server_clocks_moved_; }

private:
    std::vector<NodeLife> lives_;
    std::map<std::string, std::vector<std::size_t>, std::less<>> by_path_;  ///< incarnations in zxid order
    std::map<std::string, ZkGrant, std::less<>> grants_;                    ///< by owner
    RevisionClock clock_;
    bool server_clocks_moved_ = false;

    void follow(const ServerRecord& record);
};

}  // namespace lockcheck
