// How to run one mariadbd node (docs/servers.md, "MariaDB"): its data directory,
// its command line, its readiness probe, and the root account the harness
// uses over the node's Unix socket to set it up and to inject faults.
//
// Layout of a node's directory: data/ (mariadb-install-db, its output in
// install.log), tmp/ (its own tmpdir: servers sharing /tmp delete each
// other's temporary tables at start-up), mysqld.sock,
// mysqld.pid, server.log (the server's stderr, through Node). Binary logs
// (ROW format) and relay logs live in data/.
//
// root authenticates by socket only (without root, the invoking OS user
// runs and administers the servers the same way); clients use the TCP account
// kMariadbUser with the run's client password, which has the privileges a lock
// recipe needs on database kMariadbDatabase and nothing else (neither SUPER
// nor READ ONLY ADMIN: @@read_only = 1 really stops its writes); a replica
// logs in to its primary as kMariadbReplicationUser with its own password.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clusters/durability_settings.hpp"
#include "clusters/servers/mariadb_account.hpp"
#include "clusters/node.hpp"
#include "clusters/servers/server_credentials.hpp"

namespace lockcheck {

/// Installs a fresh data directory in each `node_dirs`[i]/data with
/// mariadb-install-db, all at once (one thread each). Throws NodeStartError
/// naming the directory and the installer's first output line. A node
/// directory whose path the installer script would split (a space) is
/// reached through a link in /tmp/lockcheck-mariadb-<run_id>-XXXXXX, removed
/// when the install ends, and by remove_mariadb_installer_links after a
/// kill -9.
void install_mariadb_datadirs(const std::vector<std::filesystem::path>& node_dirs, const std::string& run_id);

/// Removes the installer links (/tmp/lockcheck-mariadb-<run_id>-*) of the
/// dead run `run_id`; the links only, never what they name. Never throws.
/// Returns what was removed.
std::vector<std::string> remove_mariadb_installer_links(const std::string& run_id) noexcept;

/// The node's Unix socket. Its path may be longer than a Unix socket address
/// allows (a deep run directory): the server gets it relative to its data
/// directory, which mariadbd changes into, and the harness connects through
/// /proc/self/fd/N/mysqld.sock, N an O_PATH descriptor of `node_dir`.
std::filesystem::path mariadb_socket(const std::filesystem::path& node_dir);

/// The program that runs mariadbd on `address`:3306 with data in
/// `dir`/data (the program's data_dir, under the metadata rule any-fsync:
/// MariaDB never fsyncs the data directory after it starts a new binary log,
/// and relies on the filesystem's journal, as ext4's, to keep the file; see
/// docs/nemesis.md),
/// server id `server_id`, binary log on (ROW), a 32 MB buffer pool, an 8 MB
/// redo log, performance_schema off, innodb_flush_log_at_trx_commit and
/// sync_binlog from `durability` (and --innodb-doublewrite=0 without
/// mariadb_doublewrite), then `extra_args` (e.g. "--read-only=1").
/// Ready when root can connect over the socket. Throws std::invalid_argument
/// for a durability value MariaDB has no meaning for here (DurabilitySettings).
NodeProgram mariadb_server_program(const std::filesystem::path& dir, const std::string& address, int server_id,
                                   const DurabilitySettings& durability,
                                   const std::vector<std::string>& extra_args = {});

/// Runs `statements` in order as root over the node's socket, on one
/// connection, with `timeout` (rounded up to whole seconds) per statement.
/// Throws std::runtime_error naming the node, the statement and the server's
/// message at the first failure, with the passwords of `hidden` (those the
/// statements carry) written as "***".
void mariadb_admin(const Node& node, const std::vector<std::string>& statements, const ServerCredentials& hidden = {},
                   std::chrono::milliseconds timeout = std::chrono::seconds(5));

/// The first column of the first row of `query` as root over the socket;
/// nullopt when the node does not answer, the query fails, there is no row,
/// or the value is NULL. Never throws.
std::optional<std::string> mariadb_admin_scalar(const Node& node, const std::string& query,
                                                std::chrono::milliseconds timeout = std::chrono::seconds(2));

/// The first column of every row of `query` as root over the socket (NULLs
/// skipped); empty when the node does not answer or the query fails. Never throws.
std::vector<std::string> mariadb_admin_column(const Node& node, const std::string& query,
                                              std::chrono::milliseconds timeout = std::chrono::seconds(2));

/// Creates database kMariadbDatabase, the client account kMariadbUser
/// (SELECT, INSERT, UPDATE, DELETE and CREATE on that database only) and the
/// replication account kMariadbReplicationUser (REPLICATION SLAVE only), with
/// the passwords of `credentials` (idempotent). On a replicated topology run
/// it on the primary only: it is replicated.
void create_mariadb_accounts(const Node& node, const ServerCredentials& credentials);

}  // namespace lockcheck
