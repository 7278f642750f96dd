// How to run one etcd 3.4 member (Debian's etcd-server) and ask it about the
// cluster over its HTTP/JSON gateway.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "clusters/node.hpp"

namespace lockcheck {

inline constexpr int kEtcdClientPort = 2379;
inline constexpr int kEtcdPeerPort = 2380;

/// The static bootstrap of one cluster, the same for every member.
struct EtcdBootstrap {
    std::string initial_cluster;  ///< "n1=http://IP:2380,n2=..."
    std::string token;            ///< fresh per run, so members of two runs never join each other
};

/// The program of member `name` at `address`: data in `data_dir` (created by
/// etcd; the program's data_dir, under the metadata rule dir-fsync: etcd
/// fsyncs the directories it changes), log on stderr (the node's server.log
/// in `dir`), --heartbeat-interval 100 --election-timeout 1000
/// (docs/servers.md), and --unsafe-no-fsync when `fsync` is false. Its
/// readiness probe is "the client port accepts a connection and the peer
/// port answers GET /version": the client port answers nothing before a
/// quorum is up (so the topology waits for the leader itself,
/// EtcdCluster::start), but the peer port is served once the member has
/// loaded its WAL, so a member that refuses its WAL is never ready.
NodeProgram etcd_server_program(const std::filesystem::path& dir, const std::filesystem::path& data_dir,
                                const std::string& name, const std::string& address, const EtcdBootstrap& bootstrap,
                                bool fsync = true);

/// What one member says about the cluster (POST /v3/maintenance/status).
struct EtcdMemberStatus {
    std::string member_id;  ///< its own id (decimal uint64 as text)
    std::string leader;     ///< the leader's id; "" or "0" when it knows none
};

/// The member's status, or nullopt when it does not answer within `timeout`
/// or answers something else.
std::optional<EtcdMemberStatus> etcd_member_status(const std::string& address,
                                                   std::chrono::milliseconds timeout = std::chrono::milliseconds(300));

}  // namespace lockcheck
