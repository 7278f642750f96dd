#include "netproxy/endpoint.hpp"

#include <arpa/inet.h>

#include <stdexcept>

namespace lockcheck::netproxy {

std::string to_string(const Endpoint& endpoint) { return endpoint.address + ":" + std::to_string(endpoint.port); }

sockaddr_in to_sockaddr(const Endpoint& endpoint) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(endpoint.port);
    if (::inet_pton(AF_INET, endpoint.address.c_str(), &address.sin_addr) != 1)
        throw std::invalid_argument("not an IPv4 address: '" + endpoint.address + "'");
    return address;
}

Endpoint from_sockaddr(const sockaddr_in& address) {
    char text[INET_ADDRSTRLEN] = {};
    ::inet_ntop(AF_INET, &address.sin_addr, text, sizeof text);
    return Endpoint{text, ntohs(address.sin_port)};
}

}  // namespace lockcheck::netproxy
