// Fault "client-clock-skew": one worker's wall clock jumps by
// client_clock_skew_ms (forward when positive) while it runs, and back at the
// heal. Works through the LD_PRELOAD clock library (clusters/clock_offset.hpp,
// docs/nemesis.md "The clock library"): a run whose nemesis has this fault
// execs every worker, the built-in `lockcheck worker` and a --client-cmd
// alike, with the library and an offset file of its own, and the fault
// rewrites the target's file. Only CLOCK_REALTIME (and gettimeofday, time)
// moves: a client that times its lease with a monotonic clock is not
// affected, one that trusts the wall clock is. A client that does not call
// the C library for the time (Go, a static binary, the vDSO read directly)
// is not reached, and nothing can tell: its skew is recorded all the same.
//
// Target: any live worker, by the event's pick ("worker N").
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>

#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

/// The directory whose clock-offset file worker `process` reads
/// (clusters/clock_offset.hpp), under `workers_dir` (RUN_DIR/workers).
std::filesystem::path worker_clock_dir(const std::filesystem::path& workers_dir, int process);

class ClientClockSkew : public Fault {
public:
    /// `workers_dir` empty: the workers run without the clock library, and the fault is unavailable.
    ClientClockSkew(WorkerControl& workers, std::filesystem::path workers_dir, std::int64_t offset_ms)
        : workers_(workers), workers_dir_(std::move(workers_dir)), offset_ms_(offset_ms) {}
    std::string kind() const override { return "client-clock-skew"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    WorkerControl& workers_;
    std::filesystem::path workers_dir_;
    std::int64_t offset_ms_;
    std::mutex mutex_;
    std::optional<int> skewed_;
};

/// The descriptor of this fault (nemesis/client_clock_skew_descriptor.cpp).
FaultDescriptor client_clock_skew_fault();

}  // namespace lockcheck
