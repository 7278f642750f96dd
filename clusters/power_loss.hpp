// Power loss of server nodes: what the `power-loss` fault calls
// (docs/nemesis.md, "The lose-unsynced filesystem").
//
// A power loss is a crash that also loses what the server never synced: only
// nodes that keep their data on the lose-unsynced filesystem can suffer one,
// that is every data-holding node of a topology built with
// TopologyOptions::unsynced_data (Redis servers but not Sentinels, ZooKeeper
// servers, etcd members, MariaDB servers), and none without it.
//
// cut_power() strikes a set of nodes at once (a rack losing power): it
// SIGKILLs and reaps every one of them before any loses data, so no write of
// one arrives after another's loss. They stay down until restore_power(),
// which starts them again and waits until each is ready. power_loss() does
// both with the delay between them. Restarted servers are children of the
// calling thread and die with it (host/child_process.hpp): call these
// from a thread that lives as long as the nodes should.
//
// A filesystem that fails (its daemon dies, hangs or cannot undo something)
// makes these throw UnsyncedFsError, and is reported once through
// UnsyncedDataOptions::on_failure; the run must then end with a harness error.
#pragma once

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/topologies/topology.hpp"

namespace lockcheck {

/// The nodes of `topology` a power loss can strike (Node::can_lose_power), in
/// node order. Empty when the topology was built without unsynced_data.
std::vector<Node*> power_loss_nodes(Topology& topology);

/// Cuts the power of `nodes` at once: SIGKILLs and reaps all of them, then
/// throws away what each never synced and mounts its filesystem afresh
/// (Node::lose_power), keeping what `tear` says of each file's unsynced
/// writes. They stay down. Returns what each lost, in order.
/// Throws std::logic_error for a node that cannot lose power, UnsyncedFsError
/// for the first filesystem that fails (after every node was struck).
std::vector<PowerLossSummary> cut_power(const std::vector<Node*>& nodes, const unsyncedfs::Tear& tear = {});

/// Starts `nodes` again, one after another, each until it is ready
/// (Node::start). Tries every node; then throws NodeStartError naming the
/// first that did not come back.
void restore_power(const std::vector<Node*>& nodes);

/// cut_power(nodes), keeps them down for `down_for`, restore_power(nodes).
/// A stop requested on `interrupt` ends the wait: the nodes then stay down
/// and it returns nullopt. Otherwise returns what each node lost.
std::optional<std::vector<PowerLossSummary>> power_loss(const std::vector<Node*>& nodes,
                                                        std::chrono::milliseconds down_for,
                                                        const std::stop_token& interrupt);

/// Makes everything the nodes of `topology` have written so far durable, as
/// the kernel's writeback would have on a machine that ran longer than half
/// a minute (Node::make_data_durable). Call it once the topology is ready,
/// before the workload: what a server wrote while starting is no
/// acknowledged write (ZooKeeper writes its first snapshot without syncing
/// it, and a power loss seconds after an ensemble formed would leave a
/// majority unable to start: "No snapshot found, but there are log
/// entries"). Throws UnsyncedFsError.
void make_data_durable(Topology& topology);

/// The first failure of a node's lose-unsynced filesystem in `topology` (its
/// daemon died or hung), or nullopt.
std::optional<std::string> data_filesystem_failure(Topology& topology);

}  // namespace lockcheck
