// Fault rules inside one node's network namespace (docs/servers.md, "Test network"):
// the node's own iptables filter table is replaced in one iptables-restore
// batch (atomic, ≈ 20 ms). The root namespace's iptables are never touched.
#pragma once

#include <string>
#include <vector>

#include "clusters/node.hpp"

namespace lockcheck {

/// Rules that drop all traffic between the node and each of `peers` (addresses),
/// in both directions. Traffic with anybody else (the controller's clients on
/// the bridge address .254) still flows.
std::vector<std::string> isolation_rules(const std::vector<std::string>& peers);

/// Rules that drop each packet the node receives or sends on its interface
/// (eth0) with `probability` (0..1): iptables' statistic match, as there is no
/// netem in this kernel.
std::vector<std::string> packet_loss_rules(double probability);

/// Replaces the filter table of the node's namespace with `rules` ("-A CHAIN ..."
/// lines). The batch file is kept in the node's directory (firewall.rules).
/// Throws std::runtime_error when the node has no namespace or iptables fails.
void apply_firewall(const Node& node, const std::vector<std::string>& rules);

/// Empties the filter table of the node's namespace. Never throws.
void clear_firewall(const Node& node) noexcept;

}  // namespace lockcheck
