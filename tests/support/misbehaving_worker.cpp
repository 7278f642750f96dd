#include "tests/support/misbehaving_worker.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace lockcheck::testing {

std::string misbehaving_spec(const std::string& mode) {
    const auto path = fresh_store("spec-" + mode) / "spec.json";
    nlohmann::json spec{{"name", "misbehaving-" + mode},
                        {"recipe", "python-misbehaving"},
                        {"client_cmd", "/usr/bin/python3 " + std::string(LOCKCHECK_SOURCE_DIR) +
                                           "/tests/clients/misbehaving_client.py " + mode},
                        {"workers", 3},
                        {"time_limit_s", 6},
                        {"nemesis", nlohmann::json::array()},
                        {"op_timeout_ms", 1500},
                        {"fault_duration_ms", {100, 200}}};
    std::ofstream(path) << spec.dump();
    return path.string();
}

int ops_with_error(const RunOutcome& run, const std::string& text) {
    std::ifstream in(run.run_dir / "history.jsonl");
    int count = 0;
    for (std::string line; std::getline(in, line);) {
        const auto op = nlohmann::json::parse(line);
        if (op.contains("error") && op["error"].get<std::string>().find(text) != std::string::npos) ++count;
    }
    return count;
}

int highest_process(const RunOutcome& run) {
    std::ifstream in(run.run_dir / "history.jsonl");
    int highest = -1;
    for (std::string line; std::getline(in, line);) {
        const auto op = nlohmann::json::parse(line);
        if (op["process"].is_number_integer()) highest = std::max(highest, op["process"].get<int>());
    }
    return highest;
}

void expect_replaced_and_judged(const RunOutcome& run, const std::string& mode, const std::string& reason) {
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << "the run goes on and reaches a verdict\n" << run.output;
    EXPECT_GE(ops_with_error(run, reason), 1) << "the op in flight is completed with the reason";
    EXPECT_GE(highest_process(run), 3) << "replacements run under new process numbers";
    EXPECT_NE(read_file(run.run_dir / "lockcheck.log").find("replaced by worker"), std::string::npos);
    EXPECT_EQ(stats(run, "mutual-exclusion")["within_lease"].get<int>(), 0) << "no false overlaps from a dead worker";
    // A worker that hangs past its 1 s lease really is inside its critical section until the
    // controller kills it at op_timeout_ms (1.5 s): a lease-expired overlap then is a fact, as with
    // a GC pause. The other modes fail at once and must leave no overlap at all.
    if (mode != "hang") {
        EXPECT_EQ(stats(run, "mutual-exclusion")["overlaps"].get<int>(), 0);
    }
}

}  // namespace lockcheck::testing
