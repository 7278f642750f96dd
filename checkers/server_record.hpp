// The servers' own record of a run, as the witness reads it
// (clusters/topologies/server_record.hpp writes server-record.jsonl during a
// run; docs/checkers.md, "The servers' record"). Pure: text in, record out.
//
// etcd's record is one event per key change in the servers' order: the
// revision (and the event's place within it), PUT or DELETE, the key, and
// for a PUT the value (the recipes write the owner there), the key's create
// revision, version and lease; for a DELETE the deleted key's last value and
// lease (prev_kv).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck {

struct ServerEvent {
    std::int64_t revision = 0;
    int sub = 0;  ///< its place among the events of one revision (a txn or a revoke changes several keys)
    bool deleted = false;
    std::string key;
    std::string value;  ///< PUT: the new value; DELETE: the deleted key's last value
    std::int64_t create_revision = 0;
    std::int64_t version = 0;  ///< PUT: 1 for a key it creates
    std::int64_t lease = 0;    ///< PUT: the key's lease; DELETE: the deleted key's lease
};

struct ServerRecord {
    std::string server;  ///< "etcd"
    bool read = false;
    std::string why;                  ///< when not read: one line
    std::int64_t revision = 0;        ///< the store's revision when it was read
    double seconds = 0;               ///< what reading it took during the run
    std::vector<ServerEvent> events;  ///< in the servers' order
};

/// The record that server-record.jsonl's `text` holds. A file that does not
/// read is a record not read, its `why` naming the line and the fault: the
/// witness then stays silent and the checkers' own classes stand.
ServerRecord parse_server_record(std::string_view text);

}  // namespace lockcheck
