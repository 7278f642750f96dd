#include "checkers/etcd_order.hpp"

namespace lockcheck {
namespace {

bool is_client_ok(const Op& op) { return op.type == OpType::Ok && !op.is_nemesis(); }

/// Every anchor the history's ok values give.
std::vector<RevisionAnchor> anchors_of(const History& history, const std::vector<std::int64_t>& partner) {
    std::vector<RevisionAnchor> anchors;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!is_client_ok(op) || partner[p] == kNoOp) continue;
        const std::int64_t invoke = history[static_cast<std::size_t>(partner[p])].time;
        for (const char* field : {witness_field::kGrantRevision, witness_field::kCreateRevision,
                                  witness_field::kRevision, witness_field::kRevokeRevision})
            if (const auto r = value_integer(op, field)) anchors.push_back({*r, invoke, op.time});
    }
    return anchors;
}

/// revision -> the owner whose ok release (or revoke) reported deleting at it.
std::map<std::int64_t, std::string> reported_deletes(const History& history) {
    std::map<std::int64_t, std::string> out;
    for (const Op& op : history) {
        if (op.is_nemesis() || op.type == OpType::Invoke || !op.owner || op.f != fn::kRelease) continue;
        const auto deleted = op.value.is_object() ? op.value.value("deleted", std::int64_t{1}) : 1;
        if (const auto r = value_integer(op, witness_field::kRevision); r && deleted > 0 && op.type == OpType::Ok) {
            out.emplace(*r, std::string(*op.owner));
            continue;  // its revoke found no key left: its revision is only the store's at that moment
        }
        if (const auto r = value_integer(op, witness_field::kRevokeRevision)) out.emplace(*r, std::string(*op.owner));
    }
    return out;
}

}  // namespace

std::string_view key_end_words(KeyEnd end) {
    switch (end) {
        case KeyEnd::Released: return "released by its owner";
        case KeyEnd::DeletedByOther: return "deleted by another client";
        case KeyEnd::Expired: return "expired on the server (no client reported deleting it)";
        case KeyEnd::Alive: break;
    }
    return "alive";
}

std::optional<std::int64_t> value_integer(const Op& op, const char* field) {
    if (!op.value.is_object()) return std::nullopt;
    const auto it = op.value.find(field);
    if (it == op.value.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

EtcdOrder::EtcdOrder(const History& history, const std::vector<std::int64_t>& partner, const ServerRecord& record)
    : clock_(anchors_of(history, partner)) {
    std::map<std::string, KeyLife*> alive;  // by key
    for (const ServerEvent& e : record.events) {
        if (!e.deleted && e.version == 1) {
            auto [it, fresh] = lives_.try_emplace(e.value, KeyLife{e.key, e.value, e.lease, e.revision});
            if (fresh) alive[e.key] = &it->second;
        } else if (e.deleted) {
            if (const auto it = alive.find(e.key); it != alive.end()) {
                it->second->deleted = e.revision;
                alive.erase(it);
            }
        }
    }
    const auto deleters = reported_deletes(history);
    for (auto& [owner, life] : lives_) {
        if (life.deleted == 0) continue;
        const auto it = deleters.find(life.deleted);
        life.end = it == deleters.end()  ? KeyEnd::Expired
                   : it->second == owner ? KeyEnd::Released
                                         : KeyEnd::DeletedByOther;
    }
    for (const Op& op : history)
        if (is_client_ok(op) && op.f == fn::kAcquire && op.owner)
            if (const auto g = value_integer(op, witness_field::kGrantRevision))
                grants_.emplace(std::string(*op.owner), *g);
}

const KeyLife* EtcdOrder::life_of(std::string_view owner) const {
    const auto it = lives_.find(owner);
    return it == lives_.end() ? nullptr : &it->second;
}

std::optional<std::int64_t> EtcdOrder::grant_revision(std::string_view owner) const {
    const auto it = grants_.find(owner);
    if (it == grants_.end()) return std::nullopt;
    return it->second;
}

}  // namespace lockcheck
