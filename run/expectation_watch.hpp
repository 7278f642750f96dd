// The live verdict of a run, for --stop-on-decided: a copy of every op as the
// recorder records it, checked now and then by the same checkers as the end
// of the run (run_checkers), until what has been recorded so far decides the
// scenario's expectation: met (it expects an invalid verdict, and the prefix
// is invalid as expected) or certainly not met (it expects a valid verdict and
// the prefix is invalid already, or the prefix holds a violation of a kind the
// expectation `lacks`). A safety violation in a prefix of a history stays one
// in the whole history (an op is only added after it), so the run can stop
// there; the end of the run checks the whole history again, and that check is
// the verdict.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

#include "core/history.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

/// When and why a run's expectation was decided before its time limit.
struct EarlyDecision {
    std::string reason;    ///< e.g. "expectation met: invalid with overlap-lease-expired, lost-update"
    std::int64_t ops = 0;  ///< ops recorded when it was decided
    double seconds = 0;    ///< run time of the last op checked
};

class ExpectationWatch {
public:
    /// Whether `expect` can be decided before the run ends: it expects an
    /// invalid verdict (decided once met), or a valid one, or lacks some
    /// kinds (decided once a violation breaks it). An expected unknown
    /// verdict, or none, can only be judged on the whole run, which keeps its
    /// full length. An expected valid verdict is met only by the whole run.
    static bool decides_early(const std::optional<Expectation>& expect);

    explicit ExpectationWatch(Expectation expect);

    /// Keeps a copy of `op`, recorded (index and time set). Called in index
    /// order (HistoryRecorder's observer); thread-safe.
    void observe(const Op& op);

    /// Checks every op observed so far; the decision once they decide the
    /// expectation (met, or certainly not met: see the file comment), nullopt
    /// otherwise. Only violations that count toward the verdict (safety, not
    /// liveness findings, which a later op may undo) decide. Called from one
    /// thread.
    std::optional<EarlyDecision> check();

    /// Calls check() every `interval` (or, when a check takes longer, four
    /// times its duration, so it never takes more than a fifth of a core)
    /// until it decides (returned) or `stop` is requested (nullopt). A
    /// history the checkers refuse (HistoryError) ends the watch (nullopt,
    /// logged): the end of the run reports it.
    std::optional<EarlyDecision> watch(const std::stop_token& stop, std::chrono::milliseconds interval);

private:
    Expectation expect_;
    std::mutex mutex_;
    History arrived_;  ///< observed, not yet checked; guarded by mutex_
    History history_;  ///< everything checked so far; check()'s thread only
};

}  // namespace lockcheck
