// The credentials of one run's servers: fresh random passwords per run, so
// that no other local user can log in to the servers through the bridge
// address (docs/usage.md, "Who can reach the servers").
//
// The client password goes to the workers in their init (docs/protocol.md,
// field "auth") and to the controller's own connections (readiness probes,
// Sentinel queries, the nemesis's lock lookups). The replication password is
// MariaDB's replica account's and never leaves the controller. Neither is
// written to spec.json, results.json, history.jsonl or lockcheck.log; the
// node configs that must hold them (redis.conf, sentinel.conf) are mode 0600.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace lockcheck {

/// How a client logs in: a user and its password.
struct ClientCredentials {
    std::string user;
    std::string password;

    bool operator==(const ClientCredentials&) const = default;
};

struct ServerCredentials {
    std::string client_password;       ///< Redis requirepass (also Sentinel's), MariaDB client account
    std::string replication_password;  ///< MariaDB replication account
};

/// Redis: clients authenticate as the default user (requirepass).
inline constexpr const char* kRedisUser = "default";

/// `bytes` random bytes from the kernel's CSPRNG (getrandom()), as 2 x
/// `bytes` lowercase hex digits. Throws std::runtime_error when the kernel
/// gives none.
std::string random_secret_hex(std::size_t bytes);

/// Fresh passwords for one run: 128 random bits each, as 32 hex digits.
ServerCredentials fresh_server_credentials();

/// What a client of topology `topology` logs in with: Redis topologies the
/// default user with the client password, MariaDB ones the client account
/// (clusters/servers/mariadb_account.hpp); nullopt for ZooKeeper and etcd, which have
/// no login (docs/usage.md says what protects them).
std::optional<ClientCredentials> client_credentials(const std::string& topology, const ServerCredentials& credentials);

}  // namespace lockcheck
