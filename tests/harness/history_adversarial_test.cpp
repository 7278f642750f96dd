// Nonsense histories (issue 10, item 11): `lockcheck check` used to call them
// VALID. What no recorder writes is bad input (exit 254, file:line); an empty
// history is unknown (exit 2) with the reason; what the recorder does write -
// a torn last line, a run cut off with ops in flight, nemesis ops - passes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/history_io.hpp"
#include "commands/check_command.hpp"
#include "run/exit_codes.hpp"
#include "tests/support/history_test_support.hpp"

using namespace lockcheck;
using lockcheck::testing::history_error_of;
using lockcheck::testing::kAcquire;
using lockcheck::testing::kGranted;

namespace {

std::filesystem::path write_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("lockcheck-adversarial-" + name);
    std::ofstream(path) << text;
    return path;
}

struct CheckOutcome {
    int exit_code;
    std::string out, err;
};

CheckOutcome check(const std::string& name, const std::string& text) {
    const auto path = write_file(name, text);
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int code = check_command(path);
    CheckOutcome outcome{code, ::testing::internal::GetCapturedStdout(), ::testing::internal::GetCapturedStderr()};
    std::filesystem::remove(path);
    return outcome;
}

}  // namespace

TEST(NonsenseHistory, CompletionBeforeItsInvoke) {
    EXPECT_EQ(history_error_of(kAcquire + "\n" +
                               R"({"index":1,"time":50,"process":0,"type":"ok","f":"acquire","key":"k","owner":"w0-1"})"
                               "\n"),
              "h.jsonl:2: time 50 is before time 100 of op 0: the recorder's one clock never goes back");
}

TEST(NonsenseHistory, TimeGoingBackwardsAcrossProcesses) {
    EXPECT_EQ(
        history_error_of(
            kAcquire + "\n" + kGranted + "\n" +
            R"({"index":2,"time":150,"process":1,"type":"invoke","f":"acquire","key":"k","owner":"w1-1","ttl_ms":1000})"
            "\n"),
        "h.jsonl:3: time 150 is before time 200 of op 1: the recorder's one clock never goes back");
}

TEST(NonsenseHistory, NegativeOrZeroTtl) {
    EXPECT_EQ(history_error_of(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire","key":"k","ttl_ms":-5})"
                               "\n"),
              "h.jsonl:1: field 'ttl_ms' must be from 1 to 3600000 ms (1 h), not -5");
    EXPECT_EQ(history_error_of(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"renew","key":"k","ttl_ms":0})"
                               "\n"),
              "h.jsonl:1: field 'ttl_ms' must be from 1 to 3600000 ms (1 h), not 0");
    // Beyond the spec's bound of 1 h the lease arithmetic once overflowed ("expired up to 854558029294.6 ms before").
    EXPECT_EQ(
        history_error_of(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"renew","key":"k","ttl_ms":17592186044416})"
                         "\n"),
        "h.jsonl:1: field 'ttl_ms' must be from 1 to 3600000 ms (1 h), not 17592186044416");
}

TEST(NonsenseHistory, UnknownF) {
    EXPECT_EQ(history_error_of(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"frobnicate","key":"k"})"
                               "\n"),
              "h.jsonl:1: field 'f' names no known op: 'frobnicate'");
}

TEST(NonsenseHistory, UnknownType) {
    EXPECT_EQ(history_error_of(R"({"index":0,"time":1,"process":0,"type":"maybe","f":"acquire","key":"k"})"
                               "\n"),
              "h.jsonl:1: field 'type' must be one of invoke, ok, fail, info");
}

TEST(NonsenseHistory, NegativeTime) {
    EXPECT_EQ(history_error_of(R"({"index":0,"time":-1,"process":0,"type":"invoke","f":"acquire","key":"k"})"
                               "\n"),
              "h.jsonl:1: field 'time' must not be negative (ns since the run started)");
}

TEST(NonsenseHistory, DuplicateIndex) {
    EXPECT_EQ(
        history_error_of(kAcquire + "\n" +
                         R"({"index":0,"time":200,"process":0,"type":"ok","f":"acquire","key":"k","owner":"w0-1"})"
                         "\n"),
        "h.jsonl:2: index 0 does not follow index 0");
}

TEST(NonsenseHistory, CompletionWithoutInvoke) {
    EXPECT_EQ(history_error_of(kGranted + "\n"), "h.jsonl:1: op 1: process 0 completes an op it never invoked");
}

TEST(NonsenseHistory, TwoInvokesInFlightOnOneProcess) {
    EXPECT_EQ(
        history_error_of(kAcquire + "\n" +
                         R"({"index":1,"time":150,"process":0,"type":"invoke","f":"release","key":"k","owner":"w0-1"})"
                         "\n"),
        "h.jsonl:2: op 1: process 0 invokes again before op 0 completed");
}

TEST(NonsenseHistory, CompletionOfAnotherOpOrKey) {
    EXPECT_EQ(history_error_of(kAcquire + "\n" +
                               R"({"index":1,"time":200,"process":0,"type":"ok","f":"release","key":"k"})"
                               "\n"),
              "h.jsonl:2: op 1: completion f 'release' does not match invoke f 'acquire'");
    EXPECT_EQ(history_error_of(kAcquire + "\n" +
                               R"({"index":1,"time":200,"process":0,"type":"ok","f":"acquire","key":"other"})"
                               "\n"),
              "h.jsonl:2: op 1: completion key 'other' does not match invoke key 'k'");
}

TEST(NonsenseHistory, FaultsBelongToTheNemesisOnly) {
    EXPECT_EQ(history_error_of(R"({"index":0,"time":1,"process":"nemesis","type":"invoke","f":"acquire","key":"k"})"
                               "\n"),
              "h.jsonl:1: the nemesis records only start-fault and stop-fault, not acquire");
    EXPECT_EQ(history_error_of(R"({"index":0,"time":1,"process":3,"type":"invoke","f":"start-fault"})"
                               "\n"),
              "h.jsonl:1: start-fault is recorded by process \"nemesis\" only");
}

TEST(NonsenseHistory, CheckCommandExits254NamingFileAndLine) {
    const auto outcome = check(
        "ttl.jsonl", kAcquire + "\n" + kGranted + "\n" +
                         R"({"index":2,"time":300,"process":1,"type":"invoke","f":"acquire","key":"k","ttl_ms":-1})"
                         "\n");
    EXPECT_EQ(outcome.exit_code, exit_code::kBadInput) << "used to exit 0 (VALID)";
    EXPECT_NE(outcome.err.find("lockcheck-adversarial-ttl.jsonl:3: field 'ttl_ms' must be from 1 to 3600000 ms (1 h), not -1"), std::string::npos)
        << outcome.err;
    EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << "one line: " << outcome.err;
}

TEST(EmptyHistory, IsUnknownWithTheReason) {
    const auto outcome = check("empty.jsonl", "");
    EXPECT_EQ(outcome.exit_code, exit_code::kUnknown) << outcome.out << outcome.err;
    EXPECT_NE(outcome.out.find("UNKNOWN: the history holds no ops: there is nothing to check"), std::string::npos)
        << outcome.out;
}

TEST(EmptyHistory, OnlyNemesisOpsIsUnknownToo) {
    const auto outcome = check(
        "nemesis-only.jsonl",
        R"({"index":0,"time":1,"process":"nemesis","type":"invoke","f":"start-fault","value":{"fault":"pause-holder","id":1}})"
        "\n");
    EXPECT_EQ(outcome.exit_code, exit_code::kUnknown);
    EXPECT_NE(outcome.out.find("holds no client ops"), std::string::npos) << outcome.out;
}

TEST(RecordedHistory, CutOffTornAndWithNemesisOpsPasses) {
    // What a recorder killed mid-run leaves: a fault in flight, an acquire in
    // flight, and a torn last line.
    const std::string text =
        kAcquire + "\n" + kGranted + "\n" +
        R"({"index":2,"time":300,"process":"nemesis","type":"invoke","f":"start-fault","value":{"fault":"pause-holder","id":1}})"
        "\n" +
        R"({"index":3,"time":310,"process":"nemesis","type":"info","f":"start-fault","value":{"fault":"pause-holder","id":1,"targets":["worker 0"]}})"
        "\n" +
        R"({"index":4,"time":320,"process":1,"type":"invoke","f":"acquire","key":"k","owner":"w1-1","ttl_ms":1000})"
        "\n" +
        R"({"index":5,"time":320,"process":"nemesis","type":"invoke","f":"stop-fault","value":{"fault":"pause-holder","id":1}})"
        "\n" +
        R"({"index":6,"time":330,"process":1,"type":"fail","f":"acq)";
    EXPECT_EQ(history_error_of(text), "");
    const auto outcome = check("cut-off.jsonl", text);
    EXPECT_EQ(outcome.exit_code, exit_code::kValid) << outcome.out << outcome.err;
    EXPECT_NE(outcome.err.find("partly written record"), std::string::npos) << outcome.err;
}
