// What the proxy does to the bytes and connections of a link: a value that
// the run can change at any moment (ProxyServer::set_fault, add_rule).
//
// A link has two directions, client→server (`to_server`) and server→client
// (`to_client`), each with its own DirectionFault, and two connection-level
// switches. docs/nemesis.md ("The fault proxy") says what a client observes
// under each fault.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace lockcheck::netproxy {

/// What happens to the bytes of one direction.
enum class Flow : std::uint8_t {
    /// Forwarded in order, after the latency and within the bandwidth, if any.
    pass,
    /// Neither read nor forwarded: bytes wait, in the proxy's queue or in the
    /// sender's socket buffers, and flow again, in order, when the stall ends.
    stall,
    /// Read and thrown away, with the bytes already queued; the stream's end
    /// (FIN or RST) is held back until the discard ends.
    discard,
};

struct DirectionFault {
    Flow flow = Flow::pass;
    /// Added to every byte's trip through the proxy.
    std::chrono::microseconds latency{0};
    /// Each chunk read gets an extra delay, uniform in [0, jitter]; a chunk is
    /// never released before the one read before it, so order is kept.
    std::chrono::microseconds jitter{0};
    /// Token bucket on the bytes written; 0: unlimited.
    std::uint64_t bytes_per_second = 0;

    bool operator==(const DirectionFault&) const = default;
};

struct LinkFault {
    DirectionFault to_server;
    DirectionFault to_client;
    /// Every connection it applies to is reset (RST to both the client and the
    /// server), and so is every new one, accepted and reset at once.
    bool reset_connections = false;
    /// New connects hang: their SYNs are dropped, so connect() retries as
    /// behind an iptables DROP rule and completes after the fault ends (if the
    /// client still waits). Only a link-wide fault (ProxyServer::set_fault)
    /// can hang connects; in a rule it has no effect.
    bool hang_new_connects = false;

    bool operator==(const LinkFault&) const = default;
};

/// The faults the harness uses, by name (docs/nemesis.md, "The fault proxy").
namespace faults {
/// No fault: bytes flow unchanged.
LinkFault pass();
/// `latency` plus up to `jitter` in both directions.
LinkFault delay(std::chrono::microseconds latency, std::chrono::microseconds jitter = {});
/// `latency` on the server→client direction only: replies arrive late.
LinkFault slow_reply(std::chrono::microseconds latency);
/// Connections are accepted and nothing is ever answered: bytes both ways
/// are discarded; no FIN, no RST.
LinkFault blackhole();
/// Every connection is reset, new ones too.
LinkFault reset();
/// A partition: nothing passes either way and nothing is closed; new
/// connects hang.
LinkFault drop();
/// At most `bytes_per_second` in each direction.
LinkFault bandwidth(std::uint64_t bytes_per_second);
}  // namespace faults

/// Both faults at once: latencies and jitters add up, the lower bandwidth
/// limit applies, and the stronger flow wins (discard > stall > pass); the
/// connection switches apply if either sets them.
LinkFault combine(const LinkFault& a, const LinkFault& b);

/// Throws std::invalid_argument naming the field when a latency or jitter is
/// negative or above one day (24 h).
void validate(const LinkFault& fault);

/// One line for logs, e.g. "to_server pass, to_client pass +300000us".
std::string describe(const LinkFault& fault);

}  // namespace lockcheck::netproxy
