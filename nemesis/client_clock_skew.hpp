// Fault "client-clock-skew": moves one worker's clocks while it runs, as its
// options say (nemesis/clock_fault_options.hpp, base "client_clock": which
// clocks, jump / drift / strobe, how much), and heals them at the end
// (nemesis/clock_change.hpp). Works through the clock library
// (clusters/clock_offset.hpp, docs/nemesis.md "The clock library"): a run
// whose nemesis has this fault execs every worker, the built-in `lockcheck
// worker` and a --client-cmd alike, with the library and a clock file of its
// own, and the fault rewrites the target's file. The library reaches the C
// library's clock functions and the vDSO (Go), not a statically linked
// program, and nothing can tell: its skew is recorded all the same.
//
// Target: by the event's pick among the live workers its aim allows
// (client_clock_target, nemesis/worker_aim.hpp: "any" by default; "holder"
// strikes while a lease its target times is live), waiting up to 5 s for one
// ("worker N").
#pragma once

#include <filesystem>

#include "nemesis/clock_action.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/worker_aim.hpp"

namespace lockcheck {

/// The directory whose clock-offset file worker `process` reads
/// (clusters/clock_offset.hpp), under `workers_dir` (RUN_DIR/workers).
std::filesystem::path worker_clock_dir(const std::filesystem::path& workers_dir, int process);

class ClientClockSkew : public Fault {
public:
    /// `workers_dir` empty: the workers run without the clock library, and the fault is unavailable.
    ClientClockSkew(WorkerControl& workers, std::filesystem::path workers_dir, ClockChange change,
                    AimedTarget target = {})
        : workers_(workers), workers_dir_(std::move(workers_dir)), action_(change), target_(target) {}
    std::string kind() const override { return "client-clock-skew"; }
    std::optional<std::string> unavailable_reason() const override;
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;
    void heal() noexcept override;

private:
    WorkerControl& workers_;
    std::filesystem::path workers_dir_;
    ClockAction action_;
    AimedTarget target_;
};

/// The descriptor of this fault (nemesis/client_clock_skew_descriptor.cpp).
FaultDescriptor client_clock_skew_fault();

}  // namespace lockcheck
