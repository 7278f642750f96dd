// The data files each server keeps, as descriptor data: what corrupt-file
// may aim at on a node of that server (clusters/data_file.hpp). The first
// entry of each list is the server's write-ahead log, which corrupt_file
// "log" means. docs/servers.md lists them with their fsync behaviour.
#pragma once

#include <string>
#include <vector>

#include "clusters/data_file.hpp"

namespace lockcheck {

/// redis-server with appendonly yes: the AOF's incremental and base files, and dump.rdb.
const std::vector<DataFile>& redis_data_files();
/// A ZooKeeper server: the newest transaction log and snapshot under version-2/.
const std::vector<DataFile>& zookeeper_data_files();
/// An etcd member: the newest WAL segment and the bbolt backend db.
const std::vector<DataFile>& etcd_data_files();
/// mariadbd: the redo log, the newest binary log, the system tablespace and the lock tables' tablespace.
const std::vector<DataFile>& mariadb_data_files();

/// Every file name above, each once, in order, with "log" first: the
/// choices of spec field corrupt_file.
std::vector<std::string> data_file_choices();

/// The value of spec field corrupt_file that stands for each server's write-ahead log.
inline constexpr const char* kServerLogFile = "log";

}  // namespace lockcheck
