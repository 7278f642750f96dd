// The MariaDB client account and database every lockcheck node has
// (created by clusters/mariadb_node.cpp, used by workloads/mysql_connection.cpp).
#pragma once

namespace lockcheck {

inline constexpr int kMariadbPort = 3306;
inline constexpr const char* kMariadbDatabase = "lockcheck";
inline constexpr const char* kMariadbUser = "lockcheck";
inline constexpr const char* kMariadbPassword = "lockcheck";

}  // namespace lockcheck
