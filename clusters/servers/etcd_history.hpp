// etcd's own record of a run (issue 42, docs/checkers.md "The servers'
// record"): every revision of the key space, read back from a live member
// before the members are killed, for the witness checker.
//
// One watch from revision 1 on the whole key space with prev_kv, through the
// member's v3 JSON gateway. The `created` reply's header revision R is the
// store's revision when the watch began; since every revision changes at
// least one key, the stream holds an event at R exactly, and the read stops
// there (watching only a prefix could not tell "nothing more" from "not
// yet"). A linearizable range first makes sure the member has applied what
// the leader committed. The members are tried in order, each once, within
// the limits; a compacted history, a member that does not answer or a stream
// cut short is the reason the record was not read.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// How much one read may take.
struct EtcdHistoryLimits {
    std::chrono::milliseconds per_member{10000};  ///< the whole watch on one member
    std::size_t max_bytes = 256u << 20;           ///< of the gateway's replies
    std::size_t max_value_bytes = 256;            ///< a value longer than this is cut (owners are short)
};

/// What one read gave: the events in revision order, or why there are none.
struct EtcdHistory {
    bool read = false;
    std::string why;            ///< when not read: one line
    std::string member;         ///< the address that answered
    std::int64_t revision = 0;  ///< R: the store's revision when the watch began
    /// One object per key change: rev, sub (its place within the revision),
    /// type (PUT | DELETE), key, and for a PUT value, create_revision,
    /// version, lease; for a DELETE prev_value, prev_create_revision, prev_lease.
    std::vector<nlohmann::json> events;
};

/// The history of the members at `addresses` (IPs; the client port is 2379).
EtcdHistory read_etcd_history(const std::vector<std::string>& addresses, const EtcdHistoryLimits& limits = {});

/// One watch event of the gateway (base64 key and value, int64s as text) as
/// the record's object (EtcdHistory::events) with sub = `sub`; values are cut
/// at `max_value_bytes`. Throws std::invalid_argument when it is no event.
nlohmann::json etcd_watch_event_record(const nlohmann::json& event, int sub, std::size_t max_value_bytes);

}  // namespace lockcheck
