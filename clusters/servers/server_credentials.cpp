#include "clusters/servers/server_credentials.hpp"

#include <sys/random.h>

#include <cerrno>
#include <stdexcept>
#include <vector>

#include "clusters/servers/mariadb_account.hpp"

namespace lockcheck {

std::string random_secret_hex(std::size_t bytes) {
    std::vector<unsigned char> random(bytes);
    for (std::size_t filled = 0; filled < bytes;) {
        const ssize_t got = ::getrandom(random.data() + filled, bytes - filled, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) throw std::runtime_error("getrandom() gave no random bytes for the servers' passwords");
        filled += static_cast<std::size_t>(got);
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (const unsigned char b : random) {
        hex += kHex[b >> 4];
        hex += kHex[b & 0xf];
    }
    return hex;
}

ServerCredentials fresh_server_credentials() { return {random_secret_hex(16), random_secret_hex(16)}; }

std::optional<ClientCredentials> client_credentials(const std::string& topology, const ServerCredentials& credentials) {
    if (topology.rfind("redis-", 0) == 0) return ClientCredentials{kRedisUser, credentials.client_password};
    if (topology.rfind("mysql-", 0) == 0) return ClientCredentials{kMariadbUser, credentials.client_password};
    return std::nullopt;
}

}  // namespace lockcheck
