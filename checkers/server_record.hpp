// The servers' own record of a run, as the witness reads it
// (clusters/topologies/server_record.hpp writes server-record.jsonl during a
// run; docs/checkers.md, "The servers' record"). Pure: text in, record out.
//
// etcd's record is one event per key change in the servers' order: the
// revision (and the event's place within it), PUT or DELETE, the key, and
// for a PUT the value (the recipes write the owner there), the key's create
// revision, version and lease; for a DELETE the deleted key's last value and
// lease (prev_kv).
//
// ZooKeeper's record is one txn per line in zxid order (the transaction logs
// of a majority of the ensemble, clusters/servers/zookeeper_txn_log.hpp):
// session creates and closes (a close with cxid 0 is the server's: the
// session expired), and creates and deletes of nodes with the session that
// made them (a create's session is an ephemeral node's owner).
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

enum class ZkTxnType { CreateSession, CloseSession, Create, Delete };

struct ZkTxn {
    std::int64_t zxid = 0;
    int sub = 0;  ///< its place in a multi
    ZkTxnType type = ZkTxnType::Create;
    std::int64_t session = 0;  ///< the session that made it (createSession: the new one)
    std::int64_t cxid = 0;     ///< the client's request number; 0 for the server's own txns
    std::string path;          ///< create, delete
    std::string owner;         ///< create: the node's data (the recipes write the owner there)
    bool ephemeral = false;    ///< create
};

struct ServerRecord {
    std::string server;  ///< "etcd" or "zookeeper"
    bool read = false;
    std::string why;                  ///< when not read: one line
    std::int64_t revision = 0;        ///< the store's revision when it was read (ZooKeeper: the last zxid)
    double seconds = 0;               ///< what reading it took during the run
    std::vector<ServerEvent> events;  ///< etcd's, in the servers' order
    std::vector<ZkTxn> txns;          ///< ZooKeeper's, in zxid order
    /// How many events the record holds.
    std::size_t size() const { return events.size() + txns.size(); }
};

/// The record that server-record.jsonl's `text` holds. A file that does not
/// read is a record not read, its `why` naming the line and the fault: the
/// witness then stays silent and the checkers' own classes stand.
ServerRecord parse_server_record(std::string_view text);

}  // namespace lockcheck
