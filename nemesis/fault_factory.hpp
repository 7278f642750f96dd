// The fault kinds this build knows, and how to build them for one run.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "clusters/topology.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_settings.hpp"

namespace lockcheck {

struct FaultKind {
    std::string name;
    std::string description;  ///< one line
};

/// Every fault kind, in the order `lockcheck list` shows them.
const std::vector<FaultKind>& fault_kinds();
bool is_fault_kind(const std::string& name);

/// What faults may act on in one run.
struct FaultTargets {
    WorkerControl& workers;
    Topology& topology;
    bool namespaces = false;  ///< nodes have their own network namespaces
    FaultSettings settings{};  ///< spec values the faults use
    std::string server_password = "";  ///< the servers' client password (Redis asks for it)
    std::stop_token interrupt = {};    ///< the run's interrupt (Ctrl-C): ends waits that outlast the run's stop
};

/// One fault per kind in `kinds`. Throws std::invalid_argument naming a kind
/// that is unknown or cannot run here (e.g. a partition without namespaces).
std::map<std::string, std::unique_ptr<Fault>> make_faults(const std::vector<std::string>& kinds,
                                                          const FaultTargets& targets);

}  // namespace lockcheck
