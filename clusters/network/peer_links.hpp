// The servers' peer traffic through a fault proxy, so that a partition needs
// no root (docs/nemesis.md, "Partitions in loopback mode").
//
// In loopback mode every node has an address of its own (127.77.S.N) and its
// servers connect to their peers from it (Redis: bind-source-addr). A
// topology built with PeerLinks (TopologyOptions::peer_links) gives each
// peer port a face: a proxy link listening on the node's own address, on an
// ephemeral port, forwarding to the real port. It tells the peers the face
// instead of the port (replicaof, sentinel monitor, announce-ip/-port), so
// every byte between two nodes passes through the face of the node that was
// connected to, from the address of the node that connected. Clients and
// the harness still connect to the real ports, from 127.0.0.1.
//
// A cut therefore picks connections by their client address: isolate(S)
// holds (netproxy::faults::drop: nothing passes, nothing is closed) every
// connection into a node of S from a node outside S and every connection
// into a node outside S from a node of S, open ones and new ones, until
// heal(). Connections between two nodes on the same side, and from any other
// address (clients, the harness), pass.
//
// Pair faces, for servers that do not bind the source address of their peer
// connections (ZooKeeper: every one comes from 127.0.0.1): a face dedicated
// to one ordered pair of nodes (add_pair_face), which only the first node is
// told about (ZooKeeper: each server has a zoo.cfg of its own). A cut then
// holds whole pair faces: every one between a node of S and a node outside
// S, either way, with all its connections, open and new (new connects hang,
// as behind an iptables DROP rule), until heal(). A pair face whose server
// refuses a connection (not listening yet) retries it for up to 2 s before
// it resets the peer, as the peer would retry a direct connect.
//
// The proxy runs on a thread of the lockcheck process; the destructor closes
// every socket and joins it. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "netproxy/proxy_server.hpp"

namespace lockcheck {

class PeerLinks {
public:
    PeerLinks() = default;
    PeerLinks(const PeerLinks&) = delete;
    PeerLinks& operator=(const PeerLinks&) = delete;

    /// A new face for the server at `address`:`port`: a link listening on
    /// `address`, an ephemeral port, forwarding there. Returns the face's
    /// port. Throws std::system_error when it cannot listen.
    int add_face(const std::string& address, int port);
    /// A new pair face for the traffic from node `from` to the server at
    /// `address`:`port` (on another node): a link listening on `address`, an
    /// ephemeral port, forwarding there; `head` rewrites the start of each
    /// connection's from→server stream (netproxy/head_rewriter.hpp), or is
    /// empty. Returns the face's port. Throws std::system_error when it
    /// cannot listen.
    int add_pair_face(const std::string& from, const std::string& address, int port, netproxy::HeadRewriter head = {});

    /// Cuts every face and pair face between `side` and `rest` (node
    /// addresses), both ways, on top of any cut already in force. Returns how
    /// many open connections the cut caught.
    std::uint64_t isolate(const std::vector<std::string>& side, const std::vector<std::string>& rest);
    /// Removes every cut. Never throws.
    void heal() noexcept;

    struct Totals {
        std::uint64_t faces = 0;           ///< faces and pair faces
        std::uint64_t connections = 0;     ///< accepted by the faces
        std::uint64_t open = 0;            ///< open through the faces now
        std::uint64_t cuts = 0;            ///< isolate() calls
        std::uint64_t caught = 0;          ///< open connections the cuts caught, summed
        std::uint64_t rules_in_force = 0;  ///< 0 once healed
    };
    Totals totals() const;
    /// Stats of the face or pair face listening on `address`:`face_port`; throws
    /// std::invalid_argument when there is none.
    netproxy::LinkStats face_stats(const std::string& address, int face_port) const;
    /// "peer links: F faces, C connections, K cuts caught N open connections,
    /// R cut rules left" (R is 0 once healed).
    std::string summary() const;

private:
    /// Holds the connections into the faces of `targets` from `sources`; returns those open now.
    std::uint64_t cut_into(const std::set<std::string>& targets, const std::set<std::string>& sources);
    /// Holds whole the pair faces from `sources` into `targets`; returns their open connections.
    std::uint64_t cut_pairs(const std::set<std::string>& targets, const std::set<std::string>& sources);

    struct PairFace {
        std::string from;
        netproxy::LinkInfo link;
    };

    mutable std::mutex mutex_;
    std::vector<netproxy::LinkInfo> faces_;
    std::vector<PairFace> pair_faces_;
    std::vector<netproxy::RuleId> rules_;
    std::vector<netproxy::LinkId> cut_pair_faces_;  ///< held whole until heal()
    std::uint64_t cuts_ = 0;
    std::uint64_t caught_ = 0;
    netproxy::ProxyServer proxy_;  // last: stopped first
};

}  // namespace lockcheck
