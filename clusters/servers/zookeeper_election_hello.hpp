// The first message of a ZooKeeper 3.5+ election connection, rewritten on
// its way through a per-pair peer face (docs/nemesis.md, "Partitions in
// loopback mode").
//
// A server that connects to a peer's election port sends its protocol
// version (-65536, or -65535 with multiAddress.enabled), its sid and its own
// election address(es), "host:port" joined by '|'. A peer with a higher sid
// drops that connection and connects back itself, to the address it was
// sent, not to the one in its own zoo.cfg (QuorumCnxManager.handleConnection)
// - past every face. Unless the address is a wildcard: then it uses its own
// zoo.cfg, which names its face for that peer. So the rewrite replaces each
// host by 0.0.0.0 and keeps the port; the sid and everything after the
// message pass unchanged. Any other first message (an older protocol, whose
// first long is the sid; a malformed one) passes unchanged.
#pragma once

#include "netproxy/head_rewriter.hpp"

namespace lockcheck {

/// The rewriter for a face in front of a ZooKeeper server's election port.
netproxy::HeadRewriter zookeeper_election_hello_rewriter();

}  // namespace lockcheck
