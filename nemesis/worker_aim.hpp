// The moment a worker-level fault aims at, chosen from what the run is doing
// (which workers hold, wait, renew), so that a fault lands on the danger a
// certify cell exists for instead of at random (docs/nemesis.md, "Client
// faults"; pause-client's pause_client_target, client-clock-skew's
// client_clock_target).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "nemesis/fault.hpp"

namespace lockcheck {

/// Which workers a fault may strike now.
enum class WorkerAim {
    Any,         ///< every live worker: holders, waiters and thinkers
    Waiting,     ///< a worker whose acquire has been in flight for at least `waiting_for`
    Renewing,    ///< a holder whose renew was sent and not yet answered; any holder until the run's first renew
    LoneHolder,  ///< the one holder while no other worker holds or has an acquire in flight
    Holder,      ///< any holder
};

/// An aim and its one parameter.
struct AimedTarget {
    WorkerAim aim = WorkerAim::Any;
    std::chrono::milliseconds waiting_for{0};  ///< with Waiting: the acquire in flight for at least this long
};

/// Every aim's name, in the enum's order: "any", "waiting", "renewing", "lone-holder", "holder".
const std::vector<std::string>& worker_aim_names();
/// The aim named `name`; nullopt for another name.
std::optional<WorkerAim> worker_aim_named(const std::string& name);

/// The workers `target` allows now, as `workers` reports them (unsorted, maybe repeated).
std::vector<int> aimed_workers(const WorkerControl& workers, const AimedTarget& target);

}  // namespace lockcheck
