// The servers' own record of a run (issue 42): what a topology's descriptor
// reads from its live servers after the workload stopped and before they are
// killed (TopologyDescriptor::read_server_record), written into the run
// directory as server-record.jsonl for the witness (checkers/server_record.hpp
// reads it back, so `lockcheck check` re-decides a stored run offline).
//
// The file: a first line {"server", "read": true, "revision", "member",
// "events", "seconds"} (ZooKeeper: "zxid", "servers" and "notes" instead of
// "revision" and "member") or {"server", "read": false, "why", "seconds"},
// then one line per event of the server's order (etcd:
// clusters/servers/etcd_history.hpp; ZooKeeper: clusters/servers/zookeeper_txn_log.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

inline constexpr const char* kServerRecordFile = "server-record.jsonl";

/// What reading the record came to.
struct ServerRecordOutcome {
    std::string server;  ///< "etcd", "zookeeper"
    bool read = false;
    std::string why;  ///< when not read: one line
    std::size_t events = 0;
    double seconds = 0;  ///< what reading it took
};

/// Writes `header` (the outcome's fields are added to it) and `events` to
/// `path`, one JSON object per line, atomically.
void write_server_record(const std::filesystem::path& path, const ServerRecordOutcome& outcome, nlohmann::json header,
                         const std::vector<nlohmann::json>& events);

}  // namespace lockcheck
