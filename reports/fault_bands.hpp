// The faults of a run as report.html draws them: when the nemesis asked for
// each fault, when it took effect (the start-fault completion: a failover
// first waits for the cluster to settle), when it was healed, and the
// scheduled faults that never ran.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/history.hpp"

namespace lockcheck {

/// How a scheduled fault went.
enum class FaultStatus {
    Effective,   ///< started (start-fault completed with targets)
    Failed,      ///< the start-fault completed with an error ("no target", "fault failed: ...")
    Unfinished,  ///< the start-fault never completed (the run ended while it was starting)
    NotRun,      ///< in the schedule, not started before the run ended
};

std::string_view to_string(FaultStatus status);

struct FaultBand {
    std::int64_t id = 0;
    std::string kind;
    std::vector<std::string> targets;  ///< e.g. "worker 4", "n1"
    FaultStatus status = FaultStatus::Effective;
    std::string error;              ///< why a Failed fault did not start
    std::int64_t invoke_ns = 0;     ///< start-fault invoke (NotRun: the scheduled time)
    std::int64_t start_ns = 0;      ///< start-fault completion: in effect from here
    std::int64_t end_ns = 0;        ///< stop-fault completion, or the history's end
    std::int64_t start_op = kNoOp;  ///< index of the start-fault completion
    std::int64_t end_op = kNoOp;    ///< index of the stop-fault completion

    bool effective() const { return status == FaultStatus::Effective; }
    /// How long the nemesis waited before the fault took effect (a failover waits for the cluster to settle).
    std::int64_t wait_ns() const { return start_ns - invoke_ns; }
};

/// Every fault of the history, by id; `schedule` (nemesis-schedule.json, or
/// null) adds the scheduled faults the history never started, as NotRun
/// bands at their scheduled time and duration. Pure.
std::vector<FaultBand> scan_fault_bands(const History& history, const nlohmann::json& schedule, std::int64_t end_ns);

/// The faults `ids` in words for a sentence: up to two in full ("pause-holder
/// #1 on worker 4 (2225 ms, ops 1158–1998)"), more aggregated per kind
/// ("47 × kill-restart (#3–#49) on n1, n2, n3").
std::string describe_faults(const std::vector<FaultBand>& bands, const std::vector<std::int64_t>& ids);

/// What the nemesis did, in one or two sentences: "7 faults injected: 7 ×
/// pause-holder." plus the faults that did not start (and why) and the
/// scheduled ones that never ran.
std::string faults_sentence(const std::vector<FaultBand>& bands);

}  // namespace lockcheck
