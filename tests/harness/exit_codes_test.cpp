// The one mapping from a failure to its exit code and its one line
// (run/exit_codes.hpp): bad input 254, anything else 255.
#include <gtest/gtest.h>

#include <CLI/Error.hpp>

#include <stdexcept>
#include <string>

#include "core/history.hpp"
#include "run/exit_codes.hpp"
#include "spec/spec.hpp"

using namespace lockcheck;

namespace {

struct Reported {
    int exit_code;
    std::string err;
};

template <typename Exception>
Reported report(const Exception& exception) {
    ::testing::internal::CaptureStderr();
    const int code = report_failure(std::make_exception_ptr(exception));
    return {code, ::testing::internal::GetCapturedStderr()};
}

}  // namespace

TEST(ExitCodes, BadSpecAndBadHistoryAreBadInputInOneLine) {
    const auto spec = report(SpecError("field 'workers' must be within [1, 256]"));
    EXPECT_EQ(spec.exit_code, exit_code::kBadInput);
    EXPECT_EQ(spec.err, "lockcheck: error: field 'workers' must be within [1, 256]\n");
    const auto history = report(HistoryError("h.jsonl:3: field 'f' names no known op: 'x'"));
    EXPECT_EQ(history.exit_code, exit_code::kBadInput);
    EXPECT_EQ(history.err, "lockcheck: error: h.jsonl:3: field 'f' names no known op: 'x'\n");
}

TEST(ExitCodes, CommandLineErrorsAreBadInputAndPointAtHelp) {
    const auto parse = report(CLI::ExtrasError({"--frobnicate"}));
    EXPECT_EQ(parse.exit_code, exit_code::kBadInput);
    EXPECT_EQ(parse.err.rfind("lockcheck: error: ", 0), 0u) << parse.err;
    EXPECT_NE(parse.err.find("--frobnicate (see lockcheck --help)\n"), std::string::npos) << parse.err;
}

TEST(ExitCodes, AnythingElseIsAHarnessError) {
    const auto runtime = report(std::runtime_error("redis-server did not start"));
    EXPECT_EQ(runtime.exit_code, exit_code::kHarnessError);
    EXPECT_EQ(runtime.err, "lockcheck: error: redis-server did not start\n");
    // Not even std::invalid_argument is bad input by itself: only the run knows
    // when it means a combination the spec asks for (it throws a SpecError then).
    EXPECT_EQ(report(std::invalid_argument("unknown topology 'x'")).exit_code, exit_code::kHarnessError);
    EXPECT_EQ(report(HarnessError("every worker stopped: no hello")).err,
              "lockcheck: error: every worker stopped: no hello\n");
}

TEST(ExitCodes, ExitCodeOfPassesACommandsOwnCodeThrough) {
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(exit_code_of([] { return exit_code::kUnknown; }), exit_code::kUnknown);
    EXPECT_EQ(exit_code_of([]() -> int { throw SpecError("bad"); }), exit_code::kBadInput);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "lockcheck: error: bad\n");
}

TEST(ExitCodes, WhatIsNoStdExceptionIsNotSwallowed) {
    EXPECT_THROW(exit_code_of([]() -> int { throw 42; }), int);
}
