// Small random lock histories for differential tests: a simulated lock that
// grants and refuses truthfully, ops whose effects land at random moments
// inside (or, for info ops, after) their windows, and optional mutations that
// usually make the history non-linearizable.
#pragma once

#include <random>

#include "core/history.hpp"

namespace lockcheck::testing {

struct RandomHistoryOptions {
    int processes = 3;
    int lock_ops = 8;  ///< acquire/release invocations in total
    int keys = 1;
    double info = 0.15;            ///< chance an op completes as info (its effect may land later, or never)
    double reuse_owner = 0.0;      ///< chance an acquire reuses the process's previous owner
    double no_effect_fail = 0.05;  ///< chance an acquire fails "not executed"
    int mutations = 0;             ///< completions to corrupt after the simulation
    bool noise = true;             ///< add read/write and nemesis ops the lock checkers must ignore
    /// Chance the run ends right after an acquire's completion is recorded (a
    /// run cut off mid-hold by max_ops, a crash or kill -9), mutations applied after.
    double end_after_acquire = 0.0;
};

History random_lock_history(std::mt19937_64& rng, const RandomHistoryOptions& options);

}  // namespace lockcheck::testing
