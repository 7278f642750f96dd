// One candidate of `lockcheck shrink`, tried: its spec written to a file and
// run up to R times, each as a child run (run/child_run.hpp) in a run
// directory of its own, judged by whether it failed with the violation kind
// the shrink keeps.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/run.hpp"
#include "spec/spec.hpp"

namespace lockcheck {

struct TrialPlan {
    std::filesystem::path spec_file;  ///< where the candidate's spec is written
    std::string kind;                 ///< the violation kind a run must show to reproduce
    int runs = 3;                     ///< R
    /// Stop as soon as fewer than R - 1 runs can still reproduce (the candidate
    /// is then refused whatever the rest would show).
    bool stop_when_refused = true;
    /// self_exe, the store the child runs write into, stop_on_decided, and
    /// `interrupted`: what ends a child run early (the trial is then interrupted).
    RunOptions options;
};

struct Trial {
    int runs = 0;        ///< runs that ended (interrupted ones not counted)
    int reproduced = 0;  ///< of them, those that failed with the kind
    bool interrupted = false;
    std::vector<double> first_violation_seconds;      ///< of each run that reproduced
    std::vector<std::filesystem::path> run_dirs;      ///< every run's directory
    std::filesystem::path failing_run_dir;            ///< the first that reproduced; empty if none
    /// Why a run could not run at all (it exited 254 or 255 without a
    /// verdict: a client path that does not resolve, a server that would not
    /// start): its error line and console log. The trial stops there; such a
    /// run is no evidence that the candidate does not reproduce.
    std::string failed_to_run;
};

/// Whether `run` (its results) failed with `kind`.
bool reproduces(const RunOutcome& run, const std::string& kind);

/// At least R - 1 of R runs reproduced (for R = 1: the one run).
bool kept(const Trial& trial, int runs);

/// Writes `spec` to plan.spec_file and runs it as planned; stops at the first
/// run that could not run (Trial::failed_to_run).
Trial run_trial(const Spec& spec, const TrialPlan& plan);

nlohmann::json trial_to_json(const Trial& trial);

}  // namespace lockcheck
