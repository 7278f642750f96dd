// The MariaDB accounts and database every lockcheck node has (created by
// clusters/servers/mariadb_node.cpp; the client account is used by
// recipes/mysql_connection.cpp). Their passwords are fresh per run
// (clusters/servers/server_credentials.hpp).
#pragma once

namespace lockcheck {

inline constexpr int kMariadbPort = 3306;
inline constexpr const char* kMariadbDatabase = "lockcheck";
/// The clients' account: the privileges a lock recipe needs on kMariadbDatabase, nothing else.
inline constexpr const char* kMariadbUser = "lockcheck";
/// The replica's account on the primary: REPLICATION SLAVE only.
inline constexpr const char* kMariadbReplicationUser = "lockcheck_repl";

}  // namespace lockcheck
