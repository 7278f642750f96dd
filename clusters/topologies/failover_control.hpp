// What a topology with a primary and replicas offers the failover fault
// (nemesis/failover.hpp, nemesis/mysql_failover.hpp), through
// Topology::failover_control(), so the fault needs to know no topology class.
#pragma once

namespace lockcheck {

class Node;

/// Servers that elect a new primary by themselves when theirs is lost
/// (redis-sentinel): the fault cuts the primary off and waits for them.
class PrimaryElection {
public:
    virtual ~PrimaryElection() = default;
    /// True when the topology has settled around `primary` after any earlier
    /// failover: every replica follows it and every watcher names it, so a
    /// cut now starts a fresh failover.
    virtual bool settled_on(Node& primary) = 0;
};

/// Servers whose replica becomes primary only when a failover manager says
/// so (mysql-replicated): the fault plays that manager.
class PrimaryPromotion {
public:
    virtual ~PrimaryPromotion() = default;
    /// Makes `replica` a writable primary. Throws std::runtime_error when it refuses.
    virtual void promote(Node& replica) = 0;
    /// Makes `node` read-only. Throws std::runtime_error when it refuses.
    virtual void fence(Node& node) = 0;
};

/// At most one of them is set; neither: the topology cannot fail over.
struct FailoverControl {
    PrimaryElection* election = nullptr;
    PrimaryPromotion* promotion = nullptr;
};

}  // namespace lockcheck
