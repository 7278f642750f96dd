#include "netproxy/connection_info.hpp"

namespace lockcheck::netproxy::selectors {

ConnectionSelector all() {
    return [](const ConnectionInfo&) { return true; };
}

ConnectionSelector connection(ConnectionId id) {
    return [id](const ConnectionInfo& info) { return info.id == id; };
}

ConnectionSelector client(const Endpoint& client) {
    return [client](const ConnectionInfo& info) { return info.client == client; };
}

ConnectionSelector client_address(const std::string& address) {
    return [address](const ConnectionInfo& info) { return info.client.address == address; };
}

ConnectionSelector upstream_local(const Endpoint& upstream_local) {
    return [upstream_local](const ConnectionInfo& info) { return info.upstream_local == upstream_local; };
}

}  // namespace lockcheck::netproxy::selectors
