#include "clusters/servers/server_data_files.hpp"

#include <algorithm>

#include "clusters/servers/mariadb_account.hpp"

namespace lockcheck {

const std::vector<DataFile>& redis_data_files() {
    static const std::vector<DataFile> files{
        {"aof-incr", "the AOF's newest incremental file: every write since the base, as RESP commands",
         "appendonlydir", "appendonly.aof.*.incr.aof", RecordFormat::Resp},
        {"aof-base", "the AOF's base: the state at the last rewrite, in RDB format with a CRC64", "appendonlydir",
         "appendonly.aof.*.base.rdb"},
        {"rdb", "dump.rdb, the snapshot SAVE and BGSAVE write (none with save \"\")", "", "dump.rdb"},
    };
    return files;
}

const std::vector<DataFile>& zookeeper_data_files() {
    static const std::vector<DataFile> files{
        {"zk-txn-log", "the newest transaction log: records with an Adler32 each, preallocated with zeros",
         "version-2", "log.*"},
        {"zk-snapshot", "the newest snapshot of the data tree", "version-2", "snapshot.*"},
    };
    return files;
}

const std::vector<DataFile>& etcd_data_files() {
    static const std::vector<DataFile> files{
        {"etcd-wal", "the newest WAL segment: Raft entries with a chained CRC32C", "member/wal", "*.wal"},
        {"etcd-db", "the bbolt backend: the applied key space (checksums on its meta pages only)", "member/snap",
         "db"},
    };
    return files;
}

const std::vector<DataFile>& mariadb_data_files() {
    static const std::vector<DataFile> files{
        {"mariadb-redo", "InnoDB's redo log, preallocated: mini-transactions with a CRC32C each", "", "ib_logfile0"},
        {"mariadb-binlog", "the newest binary log (ROW events with a CRC32 each)", "", "mysql-bin.0*"},
        {"mariadb-ibdata", "the system tablespace: undo logs, the doublewrite buffer", "", "ibdata1"},
        {"mariadb-tablespace", "the tablespace of mysql-table-record's lock table (16 KiB pages with a CRC32)",
         kMariadbDatabase, "lock_records.ibd"},
    };
    return files;
}

std::vector<std::string> data_file_choices() {
    std::vector<std::string> names{kServerLogFile};
    for (const auto* files : {&redis_data_files(), &zookeeper_data_files(), &etcd_data_files(), &mariadb_data_files()})
        for (const auto& f : *files)
            if (std::find(names.begin(), names.end(), f.name) == names.end()) names.push_back(f.name);
    return names;
}

}  // namespace lockcheck
