// Helpers for integration tests: run the real lockcheck binary as a user
// does, read its results, and check that nothing of a run is left behind.
// Tests using them define LOCKCHECK_BINARY and LOCKCHECK_SOURCE_DIR.
#pragma once

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/child_process.hpp"

namespace lockcheck::testing {

struct RunOutcome {
    int exit_code = -1;
    std::string output;
    std::filesystem::path run_dir;
    std::string run_id;
    nlohmann::json results;
};

std::string read_file(const std::filesystem::path& path);

/// The violations of `kind` that checker `checker` reported in the run's results.json.
std::vector<nlohmann::json> violations_of(const RunOutcome& run, const char* checker, const std::string& kind);

/// A fresh store per test, so `latest` names this test's run.
std::filesystem::path fresh_store(const std::string& name);

/// Starts `lockcheck ARGS --store STORE` with output to STORE/output.txt.
std::unique_ptr<ChildProcess> start_lockcheck(const std::filesystem::path& store, std::vector<std::string> args,
                                              std::vector<std::string> env_prefix = {});

/// `kill -9` of the controller alone, as a user or an OOM killer does it (not
/// ChildProcess::kill, which reaches its process group and cgroup too): no
/// cleanup code of the controller runs. Waits until it is gone.
void kill_controller_only(ChildProcess& controller);

/// The run STORE/latest names, as far as it got: its directory, its id and
/// results.json when there is one (exit code and output unknown).
RunOutcome latest_run(const std::filesystem::path& store);

/// Whether the latest run in `store` has recorded an op within 30 s: it is
/// past its start (the clean, the servers) and driving its workers, so an
/// interrupt now stops a run rather than a start.
bool wait_for_first_record(const std::filesystem::path& store);

/// Waits for lockcheck (up to 150 s) and reads what the run left.
RunOutcome finish(ChildProcess& child, const std::filesystem::path& store);

/// start_lockcheck + finish in a fresh store named after `test`.
RunOutcome run_lockcheck(const std::string& test, std::vector<std::string> args);

/// `lockcheck run SPEC EXTRA... --time-limit LIMIT_S --stop-on-decided` in a
/// fresh store named after `test`, for a spec that expects an invalid run.
/// Rule: the run ends as soon as its expectation is met, and gets up to
/// `limit_s` seconds of workload to meet it, so a slow machine gets more
/// chances at the violation and an idle one stops at the first. A test that
/// asserts what the expectation does not name (a count that grows with time)
/// must not use it.
RunOutcome run_until_decided(const std::string& test, const std::string& spec, int limit_s,
                             std::vector<std::string> extra = {});

/// Like run_lockcheck, but `cd STORE && lockcheck ARGS --store .`: every path
/// the run hands its servers (config, data, log) is relative.
RunOutcome run_lockcheck_with_relative_store(const std::string& test, std::vector<std::string> args);

/// Runs `lockcheck clean` (output in DIR/clean.txt), expects exit 0 within
/// 60 s, and returns its output.
std::string run_clean(const std::filesystem::path& dir);

/// Processes whose command line or working directory names the run.
std::vector<std::string> processes_of_run(const std::string& run_id);

/// Adds a gtest failure for every namespace, link or process of the run left.
void expect_nothing_left(const RunOutcome& run);

/// results.json's stats of checker `checker`.
const nlohmann::json& stats(const RunOutcome& run, const char* checker);

/// The kinds of the violations checker `checker` of `run` reported
/// ("overlap-lease-expired", "late-grant", ...); none when it did not run.
std::set<std::string> violation_kinds(const RunOutcome& run, const char* checker);

/// Asserts (as gtest failures) that mutual-exclusion found an
/// overlap-lease-expired overlap naming the ops that prove it, and no overlap
/// but lease-expired and lease-uncertain ones: a holder stalled past its lease
/// on a server that keeps its promise. Uncertain ones come under load, when
/// the record cannot order a lease's end and the next grant.
void expect_lease_expired_overlaps_only(const RunOutcome& run);

/// The nemesis ops of the run's history.jsonl with f == `f` ("start-fault")
/// and type == `type` ("info"), in order.
std::vector<nlohmann::json> nemesis_ops(const RunOutcome& run, const std::string& f, const std::string& type);

/// The path of scenarios/NAME.json in the source tree.
std::string scenario(const char* name);

}  // namespace lockcheck::testing
