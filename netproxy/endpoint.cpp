#include "netproxy/endpoint.hpp"

#include <arpa/inet.h>

#include <charconv>
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

Endpoint parse_endpoint(const std::string& text) {
    const auto colon = text.rfind(':');
    const auto refuse = [&] { return std::invalid_argument("not an IPv4 address:port: '" + text + "'"); };
    if (colon == std::string::npos) throw refuse();
    unsigned port = 0;
    const char* first = text.data() + colon + 1;
    const char* last = text.data() + text.size();
    const auto [end, error] = std::from_chars(first, last, port);
    if (error != std::errc{} || end != last || first == last || port == 0 || port > 65535) throw refuse();
    Endpoint endpoint{text.substr(0, colon), static_cast<std::uint16_t>(port)};
    try {
        to_sockaddr(endpoint);
    } catch (const std::invalid_argument&) {
        throw refuse();
    }
    return endpoint;
}

}  // namespace lockcheck::netproxy
