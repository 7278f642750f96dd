// Runs lockcheck's command line in the test's own process (lockcheck_main),
// with its stdout and stderr captured: for tests of what a user sees.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/command_line.hpp"

namespace lockcheck::testing {

struct Ran {
    int exit_code;
    std::string out;
    std::string err;
};

/// `lockcheck ARGS...`: its exit code and what it printed.
inline Ran run_cli(std::vector<std::string> args) {
    args.insert(args.begin(), "lockcheck");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code = lockcheck_main(static_cast<int>(argv.size()), argv.data());
    return {code, ::testing::internal::GetCapturedStdout(), ::testing::internal::GetCapturedStderr()};
}

}  // namespace lockcheck::testing
