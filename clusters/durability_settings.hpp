// How much each server syncs before it acknowledges a write: the durability
// settings a run can weaken, written into the servers' real configs
// (docs/servers.md, "Durability settings"). Only a power loss
// (clusters/power_loss.hpp) tells a weak setting from a safe one: a process
// crash loses nothing the kernel holds. Redis's setting is
// TopologyOptions::persistence (none | everysec | always: appendfsync).
#pragma once

namespace lockcheck {

struct DurabilitySettings {
    /// ZooKeeper's forceSync (zoo.cfg): true fdatasyncs the transaction log
    /// before a write is acknowledged; false leaves it to the kernel.
    bool zookeeper_force_sync = true;
    /// MariaDB's innodb_flush_log_at_trx_commit: 1 syncs the redo log at
    /// every commit; 2 writes it at commit and syncs it about once a second;
    /// 0 writes and syncs it about once a second. Anything else is refused
    /// when the topology is built (std::invalid_argument), as is a
    /// mariadb_sync_binlog other than 0 or 1.
    int mariadb_flush_log_at_trx_commit = 1;
    /// MariaDB's sync_binlog: 1 syncs the binary log at every commit; 0 (the
    /// server's default) leaves it to the kernel. With the binary log on, crash
    /// recovery rolls back a commit whose binlog event was lost, so 0 loses
    /// the last commits on a power loss even with innodb_flush_log_at_trx_commit 1.
    int mariadb_sync_binlog = 0;
    /// MariaDB's innodb_doublewrite: true (the server's default) writes each
    /// page to the doublewrite buffer, synced, before its tablespace, so crash
    /// recovery can repair a page torn by a power loss; false writes it once
    /// (--innodb-doublewrite=0), and a torn page written after the last
    /// checkpoint makes recovery refuse to start (docs/disk-faults.md).
    bool mariadb_doublewrite = true;
    /// etcd: false runs it with --unsafe-no-fsync (3.4.23 accepts the flag,
    /// though its --help does not list it): neither the WAL nor the backend is
    /// ever synced.
    bool etcd_fsync = true;
    /// Redis's aof-load-truncated: true (the server's default) loads an AOF
    /// whose last command is torn by dropping that command; false refuses to
    /// start (exit 1). A cut at a command boundary loads either way
    /// (docs/nemesis.md, "Disks that lie").
    bool redis_aof_load_truncated = true;
};

}  // namespace lockcheck
