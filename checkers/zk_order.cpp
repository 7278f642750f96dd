#include "checkers/zk_order.hpp"

#include <set>

#include "checkers/etcd_order.hpp"

namespace lockcheck {
namespace {

/// The fault that moves the servers' clocks (nemesis/clock_skew.hpp's name).
constexpr std::string_view kServerClockFault = "clock-skew";

bool moves_server_clocks(const Op& op) {
    if (!op.is_nemesis() || !op.value.is_object()) return false;
    const auto fault = op.value.find("fault");
    return fault != op.value.end() && fault->is_string() && fault->get<std::string>() == kServerClockFault;
}

bool is_granted_acquire(const Op& op) {
    return op.type == OpType::Ok && !op.is_nemesis() && op.f == fn::kAcquire && op.owner.has_value();
}

/// The anchors the acquires' ok values give (zk_order.hpp says which are full).
std::vector<RevisionAnchor> zk_anchors_of(const History& history, const std::vector<std::int64_t>& partner) {
    std::vector<RevisionAnchor> anchors;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!is_granted_acquire(op) || partner[p] == kNoOp) continue;
        const std::int64_t invoke = history[static_cast<std::size_t>(partner[p])].time;
        if (const auto z = value_integer(op, zk_witness_field::kCreateZxid)) anchors.push_back({*z, invoke, op.time});
        if (const auto z = value_integer(op, zk_witness_field::kGrantZxid)) anchors.push_back({*z, 0, op.time});
    }
    return anchors;
}

}  // namespace

std::string_view node_end_words(NodeEnd end) {
    switch (end) {
        case NodeEnd::Released: return "deleted by its own session";
        case NodeEnd::DeletedByOther: return "deleted by another session";
        case NodeEnd::Expired: return "removed when its session expired on the server";
        case NodeEnd::ClosedByClient: return "removed when its client closed its session";
        case NodeEnd::Alive: break;
    }
    return "alive";
}

ZkOrder::ZkOrder(const History& history, const std::vector<std::int64_t>& partner, const ServerRecord& record)
    : clock_(zk_anchors_of(history, partner)) {
    follow(record);
    for (const Op& op : history) {
        server_clocks_moved_ = server_clocks_moved_ || moves_server_clocks(op);
        if (!is_granted_acquire(op) || !op.value.is_object()) continue;
        const auto node = op.value.find(zk_witness_field::kNode);
        if (node == op.value.end() || !node->is_string()) continue;
        grants_.emplace(
            std::string(*op.owner),
            ZkGrant{node->get<std::string>(), value_integer(op, zk_witness_field::kSession),
                    value_integer(op, zk_witness_field::kCreateZxid), value_integer(op, zk_witness_field::kGrantZxid)});
    }
}

void ZkOrder::follow(const ServerRecord& record) {
    std::map<std::string, std::size_t> alive;                 // path -> its live incarnation
    std::map<std::int64_t, std::set<std::string>> ephemeral;  // session -> its live ephemeral paths
    const auto remove = [&](const std::string& path, std::int64_t zxid, NodeEnd end) {
        const auto it = alive.find(path);
        if (it == alive.end()) return;
        NodeLife& life = lives_[it->second];
        life.removed = zxid;
        life.end = end;
        if (life.ephemeral) ephemeral[life.session].erase(path);
        alive.erase(it);
    };
    for (const ZkTxn& t : record.txns) {
        switch (t.type) {
            case ZkTxnType::Create:
                remove(t.path, t.zxid, NodeEnd::DeletedByOther);  // a create over a live node: the record lost its end
                by_path_[t.path].push_back(lives_.size());
                alive[t.path] = lives_.size();
                lives_.push_back(NodeLife{t.path, t.owner, t.session, t.ephemeral, t.zxid});
                if (t.ephemeral) ephemeral[t.session].insert(t.path);
                break;
            case ZkTxnType::Delete: {
                const auto it = alive.find(t.path);
                if (it != alive.end())
                    remove(t.path, t.zxid,
                           lives_[it->second].session == t.session ? NodeEnd::Released : NodeEnd::DeletedByOther);
                break;
            }
            case ZkTxnType::CloseSession: {
                const auto paths = ephemeral[t.session];  // remove() edits the set
                for (const auto& path : paths)
                    remove(path, t.zxid, t.cxid == 0 ? NodeEnd::Expired : NodeEnd::ClosedByClient);
                ephemeral.erase(t.session);
                break;
            }
            case ZkTxnType::CreateSession: break;
        }
    }
}

const ZkGrant* ZkOrder::grant(std::string_view owner) const {
    const auto it = grants_.find(owner);
    return it == grants_.end() ? nullptr : &it->second;
}

const NodeLife* ZkOrder::granted_node(std::string_view owner) const {
    const ZkGrant* g = grant(owner);
    if (!g) return nullptr;
    const auto it = by_path_.find(g->node);
    if (it == by_path_.end()) return nullptr;
    const NodeLife* found = nullptr;
    for (const std::size_t i : it->second) {
        const NodeLife& life = lives_[i];
        if (g->created) {
            if (life.created == *g->created) return &life;
        } else if (g->zxid && life.created <= *g->zxid) {
            found = &life;
        }
    }
    return found;
}

}  // namespace lockcheck
