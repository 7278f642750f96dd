// How to run one ZooKeeper 3.8 server of an ensemble (docs/servers.md, "ZooKeeper
// 3.8"): its zoo.cfg, myid and log4j.properties, the JVM command line, and
// the four-letter-word probes (`ruok`, `srvr`) on its client port.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clusters/node.hpp"

namespace lockcheck {

inline constexpr int kZooKeeperClientPort = 2181;
inline constexpr int kZooKeeperQuorumPort = 2888;
inline constexpr int kZooKeeperElectionPort = 3888;
inline constexpr int kZooKeeperTickMs = 500;
/// The session timeouts a server grants: a client's request is clamped into
/// [min, max] (zoo.cfg minSessionTimeout / maxSessionTimeout).
inline constexpr int kZooKeeperMinSessionMs = 2 * kZooKeeperTickMs;
inline constexpr int kZooKeeperMaxSessionMs = 60'000;

/// The four-letter words a server answers (zoo.cfg 4lw.commands.whitelist):
/// only the two lockcheck's probes use. Any other (`conf`, `dump`, `envi`,
/// `wchp`, ...) is refused, so nobody learns the ensemble's configuration or
/// sessions through them.
inline constexpr const char* kZooKeeperFourLetterWords = "ruok, srvr";

/// One line server.N of a zoo.cfg: where that server listens (its own line)
/// or where this server reaches it (the others: its ports, or in loopback
/// mode this server's pair faces for it, clusters/network/peer_links.hpp).
struct ZooKeeperServerLine {
    std::string address;
    int quorum_port = kZooKeeperQuorumPort;
    int election_port = kZooKeeperElectionPort;
};

/// Writes `dir`/zoo.cfg, `dir`/data/myid and `dir`/conf/log4j.properties for
/// server `myid` (1-based) of the ensemble whose servers are `ensemble` (in
/// myid order; its own line is where it listens, clients included), and
/// returns the program that runs it: a JVM
/// with a small heap, logging to stdout (the node's server.log), ready when
/// it answers `ruok` with `imok` (which it does before a quorum forms). Every
/// path and address in zoo.cfg is escaped (zookeeper_config_value); the files
/// are mode 0600. `force_sync` is zoo.cfg's forceSync (yes: the transaction
/// log is fdatasynced before a write is acknowledged). The data directory
/// (dataDir, which is also the log's) is `dir`/data, under the metadata rule
/// any-fsync: ZooKeeper never fsyncs a directory and relies on the
/// filesystem's journal, as ext4's, to keep the files it syncs (docs/nemesis.md).
NodeProgram zookeeper_server_program(const std::filesystem::path& dir, int myid,
                                     const std::vector<ZooKeeperServerLine>& ensemble, bool force_sync = true);

/// Sends a four-letter word (`ruok`, `srvr`, ...) to the server's client port
/// and returns everything it answers before closing, or nullopt when it does
/// not answer within `timeout` (connect and read together).
std::optional<std::string> zookeeper_four_letter(const std::string& address, const std::string& word,
                                                 std::chrono::milliseconds timeout = std::chrono::milliseconds(300));

/// The server's "Mode:" in `srvr` ("leader", "follower", "standalone"), or
/// nullopt when it does not answer or is not serving (no quorum).
std::optional<std::string> zookeeper_mode(const std::string& address,
                                          std::chrono::milliseconds timeout = std::chrono::milliseconds(300));

}  // namespace lockcheck
