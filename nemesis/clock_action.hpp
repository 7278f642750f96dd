// One clock fault's action on the processes it strikes (nodes for
// clock-skew, workers for client-clock-skew): keeps each target's clock
// state (clusters/clock_offset.hpp) across the run's events, so a monotonic
// clock keeps what it gained from one fault to the next, writes the state
// that a strike and a heal leave (nemesis/clock_change.hpp), and, in strobe
// mode, flips the wall clock every strobe_ms from a thread of its own while
// the fault lasts.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nemesis/clock_change.hpp"

namespace lockcheck {

class ClockAction {
public:
    /// Writes a clock file's new text where the target process reads it (throws on failure).
    using Writer = std::function<void(const std::string& text)>;

    explicit ClockAction(ClockChange change) : change_(change) {}
    /// Stops the strobe; writes nothing (the fault's heal() does).
    ~ClockAction();
    ClockAction(const ClockAction&) = delete;
    ClockAction& operator=(const ClockAction&) = delete;

    const ClockChange& change() const { return change_; }

    /// Strikes the target called `target` (a node's or worker's name): writes
    /// the state the change leaves, through `write`. Throws what `write` throws.
    void strike(const std::string& target, Writer write);

    /// In strobe mode: flips the wall clock of every target struck since the
    /// last heal between +jump_ms and the real time (the strobe's thread
    /// calls it every strobe_ms). Otherwise nothing.
    void flip();

    /// Ends the strike on every target struck since the last heal (the
    /// strobe stops first); failures to write are logged, not thrown.
    void heal() noexcept;

private:
    void strobe(const std::stop_token& stop);
    void stop_strobe() noexcept;

    ClockChange change_;
    std::mutex mutex_;
    std::map<std::string, ClockState> states_;  ///< every target ever struck, as last written
    std::vector<std::pair<std::string, Writer>> struck_;
    bool jumped_ = false;  ///< the strobe's phase: the wall clock at +jump_ms
    std::jthread strobe_;
};

}  // namespace lockcheck
