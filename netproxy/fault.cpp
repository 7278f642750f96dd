#include "netproxy/fault.hpp"

#include <algorithm>
#include <stdexcept>

namespace lockcheck::netproxy {

namespace faults {

LinkFault pass() { return {}; }

LinkFault delay(std::chrono::microseconds latency, std::chrono::microseconds jitter) {
    const DirectionFault delayed{Flow::pass, latency, jitter, 0};
    return LinkFault{delayed, delayed};
}

LinkFault slow_reply(std::chrono::microseconds latency) {
    LinkFault fault;
    fault.to_client.latency = latency;
    return fault;
}

LinkFault blackhole() {
    LinkFault fault;
    fault.to_server.flow = Flow::discard;
    fault.to_client.flow = Flow::discard;
    return fault;
}

LinkFault reset() {
    LinkFault fault;
    fault.reset_connections = true;
    return fault;
}

LinkFault drop() {
    LinkFault fault;
    fault.to_server.flow = Flow::stall;
    fault.to_client.flow = Flow::stall;
    fault.hang_new_connects = true;
    return fault;
}

LinkFault bandwidth(std::uint64_t bytes_per_second) {
    LinkFault fault;
    fault.to_server.bytes_per_second = bytes_per_second;
    fault.to_client.bytes_per_second = bytes_per_second;
    return fault;
}

}  // namespace faults

namespace {

std::uint64_t lower_limit(std::uint64_t a, std::uint64_t b) {
    if (a == 0) return b;
    if (b == 0) return a;
    return std::min(a, b);
}

DirectionFault combine(const DirectionFault& a, const DirectionFault& b) {
    return DirectionFault{std::max(a.flow, b.flow), a.latency + b.latency, a.jitter + b.jitter,
                          lower_limit(a.bytes_per_second, b.bytes_per_second)};
}

void validate_duration(std::chrono::microseconds value, const char* name) {
    if (value < std::chrono::microseconds::zero() || value > std::chrono::hours(24))
        throw std::invalid_argument(std::string(name) + " must be within [0, 24 h], not " +
                                    std::to_string(value.count()) + " us");
}

std::string describe(const DirectionFault& fault) {
    static constexpr const char* flow_names[] = {"pass", "stall", "discard"};
    std::string text = flow_names[static_cast<int>(fault.flow)];
    if (fault.latency.count() > 0 || fault.jitter.count() > 0) {
        text += " +" + std::to_string(fault.latency.count()) + "us";
        if (fault.jitter.count() > 0) text += " jitter " + std::to_string(fault.jitter.count()) + "us";
    }
    if (fault.bytes_per_second > 0) text += " " + std::to_string(fault.bytes_per_second) + "B/s";
    return text;
}

}  // namespace

LinkFault combine(const LinkFault& a, const LinkFault& b) {
    return LinkFault{combine(a.to_server, b.to_server), combine(a.to_client, b.to_client),
                     a.reset_connections || b.reset_connections, a.hang_new_connects || b.hang_new_connects};
}

void validate(const LinkFault& fault) {
    validate_duration(fault.to_server.latency, "to_server latency");
    validate_duration(fault.to_server.jitter, "to_server jitter");
    validate_duration(fault.to_client.latency, "to_client latency");
    validate_duration(fault.to_client.jitter, "to_client jitter");
}

std::string describe(const LinkFault& fault) {
    std::string text = "to_server " + describe(fault.to_server) + ", to_client " + describe(fault.to_client);
    if (fault.reset_connections) text += ", reset";
    if (fault.hang_new_connects) text += ", new connects hang";
    return text;
}

}  // namespace lockcheck::netproxy
