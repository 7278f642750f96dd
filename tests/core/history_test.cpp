#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/history_io.hpp"
#include "core/json_text.hpp"
#include "tests/support/history_test_support.hpp"

using namespace lockcheck;

namespace {

History sample() {
    History h;
    Op a;
    a.index = 0;
    a.time = 10;
    a.process = 3;
    a.type = OpType::Invoke;
    a.f = "acquire";
    a.key = "lock";
    a.ttl_ms = 1000;
    a.owner = "w3-1";
    Op b = a;
    b.index = 1;
    b.time = 20;
    b.type = OpType::Ok;
    b.token = 7;
    b.ttl_ms.reset();
    Op n = lockcheck::testing::nemesis_op(2, 30, OpType::Invoke, "start-fault",
                                          {{"fault", "pause-holder"}, {"targets", {"worker 3"}}});
    Op n2 = n;
    n2.index = 3;
    n2.time = 31;
    n2.type = OpType::Info;
    Op c = a;
    c.index = 4;
    c.time = 40;
    c.type = OpType::Invoke;
    c.f = "release";
    c.ttl_ms.reset();
    Op d = c;
    d.index = 5;
    d.time = 50;
    d.type = OpType::Info;
    d.error = "timeout";
    h = {a, b, n, n2, c, d};
    return h;
}

}  // namespace

TEST(History, RoundTripsThroughJsonl) {
    auto path = std::filesystem::temp_directory_path() / "lockcheck-history-roundtrip.jsonl";
    History h = sample();
    write_history(path, h);
    History back = read_history(path);
    ASSERT_EQ(back.size(), h.size());
    for (std::size_t i = 0; i < h.size(); ++i) EXPECT_EQ(op_to_json(back[i]), op_to_json(h[i])) << "op " << i;
    EXPECT_EQ(back[2].process, kNemesisProcess);
    EXPECT_EQ(back[0].ttl_ms, 1000);
    EXPECT_EQ(back[1].token, 7);
    EXPECT_EQ(back[5].error, "timeout");
    std::filesystem::remove(path);
}

TEST(History, EveryRecordIsInTheFileOnceWritten) {
    // The promise of docs/usage.md: a controller killed with SIGKILL leaves
    // every record it wrote. A child writes three records and kills itself
    // (no destructor, no flush at exit); all three must be in the file.
    auto path = std::filesystem::temp_directory_path() / "lockcheck-history-killed.jsonl";
    const History h = sample();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        auto* writer = new HistoryWriter(path);
        for (std::size_t i = 0; i < 3; ++i) writer->write(h[i]);
        ::raise(SIGKILL);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), dump_json(op_to_json(h[0])) + "\n" + dump_json(op_to_json(h[1])) + "\n" +
                              dump_json(op_to_json(h[2])) + "\n");
    std::filesystem::remove(path);
}

TEST(History, MalformedLineIsNamed) {
    std::istringstream in(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire"})"
                          "\n"
                          R"({"index":1,"time":2,"process":0,"type":"maybe","f":"acquire"})"
                          "\n");
    try {
        parse_history(in, "h.jsonl");
        FAIL() << "expected a HistoryError";
    } catch (const HistoryError& e) {
        EXPECT_STREQ(e.what(), "h.jsonl:2: field 'type' must be one of invoke, ok, fail, info");
    }
}

TEST(History, InvalidJsonIsNamedWithItsLine) {
    std::istringstream in(
        "{\"index\":0,\"time\":1,\"process\":0,\"type\":\"invoke\",\"f\":\"acquire\"}\n{oops\n"
        "{\"index\":2,\"time\":3,\"process\":0,\"type\":\"ok\",\"f\":\"acquire\"}\n");
    EXPECT_THROW(
        {
            try {
                parse_history(in, "h.jsonl");
            } catch (const HistoryError& e) {
                EXPECT_STREQ(e.what(), "h.jsonl:2: not valid JSON (byte 2)");
                throw;
            }
        },
        HistoryError);
}

TEST(History, NumberTooLargeIsNamedNotACrash) {
    // Found by fuzz_protocol: nlohmann throws out_of_range, not parse_error, for such numbers.
    std::istringstream in(
        "{\"index\":0,\"time\":8658e9659623781719,\"process\":0,\"type\":\"invoke\",\"f\":\"acquire\"}\n");
    try {
        parse_history(in, "h.jsonl");
        FAIL();
    } catch (const HistoryError& e) {
        EXPECT_STREQ(e.what(), "h.jsonl:1: not valid JSON (a number out of range)");
    }
}

TEST(History, FloatOrOutOfRangeIntegersAreNamed) {
    const auto error_of = [](const std::string& line) -> std::string {
        std::istringstream in(line + "\n");
        try {
            parse_history(in, "h.jsonl");
        } catch (const HistoryError& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(error_of(R"({"index":0,"time":1e300,"process":0,"type":"invoke","f":"acquire"})"), "");
    EXPECT_NE(error_of(R"({"index":0,"time":1,"process":4294967296,"type":"invoke","f":"acquire"})"), "");
    EXPECT_NE(error_of(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire","token":2.5})"), "");
    EXPECT_EQ(error_of(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire","token":2})"), "");
}

TEST(History, MissingFieldIsNamed) {
    std::istringstream in(R"({"index":0,"process":0,"type":"invoke","f":"acquire"})"
                          "\n");
    try {
        parse_history(in, "x");
        FAIL();
    } catch (const HistoryError& e) {
        EXPECT_STREQ(e.what(), "x:1: missing field 'time'");
    }
}

TEST(History, TornFinalLineIsDroppedAndReported) {
    std::istringstream in(R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire"})"
                          "\n"
                          R"({"index":1,"time":2,"proc)");
    HistoryReadReport report;
    History h = parse_history(in, "h", &report);
    EXPECT_EQ(h.size(), 1u);
    EXPECT_TRUE(report.dropped_torn_tail);
}

TEST(History, IndicesMustIncrease) {
    std::istringstream in(R"({"index":5,"time":1,"process":0,"type":"invoke","f":"acquire"})"
                          "\n"
                          R"({"index":5,"time":2,"process":0,"type":"ok","f":"acquire"})"
                          "\n");
    EXPECT_THROW(parse_history(in, "h"), HistoryError);
}

TEST(History, CompletionWithoutInvokeIsRejected) {
    std::istringstream in(R"({"index":0,"time":1,"process":2,"type":"ok","f":"acquire"})"
                          "\n");
    try {
        parse_history(in, "h");
        FAIL();
    } catch (const HistoryError& e) {
        EXPECT_STREQ(e.what(), "h:1: op 0: process 2 completes an op it never invoked");
    }
}

TEST(History, PairsInvokesWithCompletions) {
    History h = sample();
    auto partner = pair_ops(h);
    EXPECT_EQ(partner[0], 1);
    EXPECT_EQ(partner[1], 0);
    EXPECT_EQ(partner[2], 3);  // the nemesis is a sequential process too
    EXPECT_EQ(partner[4], 5);
}

TEST(History, AGenerateIdCompletionKeepsItsId) {
    const auto op = op_from_json(nlohmann::json::parse(
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"generate-id","key":"seq","value":{"id":41}})"));
    EXPECT_EQ(op.f, fn::kGenerateId);
    EXPECT_EQ(op.value, (nlohmann::json{{"id", 41}}));
    EXPECT_EQ(op_to_json(op)["value"]["id"], 41);
}
