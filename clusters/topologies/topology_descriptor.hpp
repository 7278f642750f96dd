// Everything lockcheck knows about one topology, in one value: its name, what
// it is, how many hosts it needs, how to build it, and which specs it cannot
// run and why. Each topology defines its descriptor in its own file
// (clusters/NAME_descriptor.cpp) and is listed once in
// clusters/topologies/topology_registry.cpp; nothing else names it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "clusters/data_file.hpp"
#include "clusters/network/test_network.hpp"
#include "clusters/topologies/server_record.hpp"
#include "clusters/topologies/topology.hpp"
#include "core/spec_view.hpp"

namespace lockcheck {

struct TopologyDescriptor {
    std::string name;         ///< spec field topology, e.g. "redis-sentinel"
    std::string description;  ///< one line, for `lockcheck list`
    /// The largest spec field `nodes` it takes; 0: a fixed size, the spec
    /// may not set `nodes`.
    int max_nodes = 0;
    /// How many network hosts it needs for `options` (options.node_count is
    /// the spec's `nodes`, 0 for the topology's default).
    std::function<int(const TopologyOptions& options)> node_count;
    /// The topology on `network`, its nodes not started. Throws
    /// std::invalid_argument for an option it cannot take.
    std::function<std::unique_ptr<Topology>(const TopologyOptions& options, const TestNetwork& network)> make;
    /// Why it cannot run `spec` (e.g. a fault its servers escape), or
    /// nullopt. Empty: it runs every spec the recipes and faults accept.
    std::function<SpecVerdict(const SpecView& spec)> refuses = {};
    /// Whether, built with TopologyOptions::peer_links, every byte between
    /// its nodes goes through those links, or its nodes exchange none: then
    /// `partition` and `failover` work in loopback mode (no root), cutting
    /// the links (docs/nemesis.md, "Partitions in loopback mode").
    bool peer_links_cut_peers = false;
    /// Without peer_links_cut_peers: why its servers' peer traffic cannot go
    /// through the peer links, for the refusal of `partition` and `failover`
    /// in loopback mode.
    std::string no_peer_links_reason = {};
    /// Faults that act on this topology by firewall rules even where its
    /// peers go through the peer links, so loopback mode refuses them, with
    /// the reason (mysql-replicated: failover cuts the clients off too).
    std::map<std::string, std::string> faults_needing_namespaces = {};
    /// The servers' own record of the run (clusters/topologies/server_record.hpp):
    /// reads it from the running servers, after the workload stopped and
    /// before they are killed, and writes it into `run_dir`/server-record.jsonl
    /// (also when it cannot be read: then with why). Empty: its servers keep
    /// no record lockcheck reads (docs/checkers.md, "The servers' record").
    std::function<ServerRecordOutcome(Topology& topology, const std::filesystem::path& run_dir)> read_server_record =
        {};
    /// The data files its servers keep (clusters/servers/server_data_files.hpp),
    /// what corrupt-file may aim at; empty when it keeps none.
    std::vector<DataFile> data_files = {};
};

/// TopologyDescriptor::make of a topology class constructed from (options, network).
template <typename TopologyClass>
std::unique_ptr<Topology> construct_topology(const TopologyOptions& options, const TestNetwork& network) {
    return std::make_unique<TopologyClass>(options, network);
}

/// TopologyDescriptor::node_count of a topology of `hosts` hosts whatever the options.
inline std::function<int(const TopologyOptions&)> fixed_node_count(int hosts) {
    return [hosts](const TopologyOptions&) { return hosts; };
}

}  // namespace lockcheck
