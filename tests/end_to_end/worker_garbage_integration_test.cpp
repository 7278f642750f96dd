// Adversarial worker replies (issue 10, items 2 and 3), from a real client
// against real redis-server: a value nested 100,000 arrays deep (it crashed
// the controller: SIGSEGV, no results.json, namespaces left) and an error in
// Latin-1 (it stopped the worker's slot for good with type_error.316; with
// every worker doing it the run exited 255). Both are garbage: the op
// completes as info, the worker is replaced, the run reaches a verdict, and
// everything stored is valid UTF-8 JSON.
#include <gtest/gtest.h>

#include <fstream>

#include "host/system_command.hpp"
#include "core/history_io.hpp"
#include "core/utf8_text.hpp"
#include "tests/support/integration_helpers.hpp"
#include "tests/support/misbehaving_worker.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

/// Ops completed info whose error contains `text`.
int info_ops_with_error(const RunOutcome& run, const std::string& text) {
    int count = 0;
    for (const auto& op : lockcheck::read_history(run.run_dir / "history.jsonl"))
        if (op.type == lockcheck::OpType::Info && op.error && op.error->find(text) != std::string::npos) ++count;
    return count;
}

}  // namespace

class GarbageWorker : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(GarbageWorker, ItsOpIsInfoItIsReplacedAndTheRunReachesAVerdict) {
    const auto [mode, reason] = GetParam();
    auto run = run_lockcheck("garbage-" + mode, {"run", misbehaving_spec(mode)});
    ASSERT_TRUE(run.results.is_object()) << "no results.json\n" << run.output;
    expect_replaced_and_judged(run, mode, reason);
    EXPECT_GE(info_ops_with_error(run, "worker sent garbage"), 3) << "every worker misbehaves once at least";
    if (mode == "latin1") {
        EXPECT_GE(info_ops_with_error(run, "caf\xEF\xBF\xBD"), 1)
            << "the reason quotes the reply, U+FFFD for the Latin-1 byte";
    }

    for (const char* file : {"history.jsonl", "results.json", "lockcheck.log", "report.html"})
        EXPECT_TRUE(lockcheck::is_valid_utf8(read_file(run.run_dir / file)))
            << file << " holds bytes that are not UTF-8";
    const auto check = lockcheck::run_command({LOCKCHECK_BINARY, "check", run.run_dir.string()});
    EXPECT_EQ(check.exit_code, run.exit_code) << "the stored history checks again offline\n" << check.output;
    expect_nothing_left(run);
}

INSTANTIATE_TEST_SUITE_P(Replies, GarbageWorker,
                         ::testing::Values(std::pair<std::string, std::string>{"deep",
                                                                               "JSON nested deeper than 64 levels"},
                                           std::pair<std::string, std::string>{"latin1", "not valid JSON (byte "}),
                         [](const auto& param_info) { return param_info.param.first; });
