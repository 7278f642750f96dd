// An IPv4 address and TCP port, as the proxy listens on and connects to them.
#pragma once

#include <netinet/in.h>

#include <cstdint>
#include <string>

namespace lockcheck::netproxy {

struct Endpoint {
    std::string address;     ///< dotted IPv4, e.g. "127.0.0.1" or "10.77.3.2"
    std::uint16_t port = 0;  ///< 0 when listening: the kernel picks an ephemeral port

    bool operator==(const Endpoint&) const = default;
};

/// "address:port".
std::string to_string(const Endpoint& endpoint);

/// The socket address of `endpoint`; throws std::invalid_argument naming the
/// address when it is not a dotted IPv4 address.
sockaddr_in to_sockaddr(const Endpoint& endpoint);

Endpoint from_sockaddr(const sockaddr_in& address);

/// The endpoint written "address:port" (to_string()'s form); throws
/// std::invalid_argument quoting `text` when it is not a dotted IPv4 address,
/// a colon and a port in 1..65535.
Endpoint parse_endpoint(const std::string& text);

}  // namespace lockcheck::netproxy
