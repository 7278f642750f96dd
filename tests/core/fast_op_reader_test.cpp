// The history reader's fast path against its reference, op_from_json(
// parse_json_bounded(line)): the same op for every line it accepts, and a
// refusal for every line it must leave to the reference.
#include "core/fast_op_reader.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/history_io.hpp"
#include "core/json_text.hpp"
#include "core/padded_line_reader.hpp"

using namespace lockcheck;

namespace {

/// `line` read by the fast path from a buffer with the padding it needs;
/// nullopt when it declines.
std::optional<Op> fast_read(FastOpReader& reader, const std::string& line) {
    std::string padded = line + std::string(PaddedLineReader::kPadding, '}');  // padding that is not JSON whitespace
    Op op;
    if (!reader.read(std::string_view(padded).substr(0, line.size()), padded.size(), op)) return std::nullopt;
    return op;
}

/// Every field of an op, with the JSON type of its value (unsigned and signed differ).
std::string describe(const Op& op) {
    return dump_json(op_to_json(op)) + " value type " + std::to_string(static_cast<int>(op.value.type()));
}

}  // namespace

TEST(FastOpReader, ReadsWhatTheReferenceReadsForEveryShapeOfRecord) {
    const std::vector<std::string> lines = {
        R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire"})",
        R"({"f":"acquire","index":0,"key":"lock-0","owner":"c5-1","process":5,"time":9406,"ttl_ms":30000,"type":"invoke"})",
        R"({"index":7,"time":9,"process":3,"type":"ok","f":"acquire","key":"k","token":12,"owner":"w3-1","node":"n1"})",
        R"({"index":7,"time":9,"process":3,"type":"fail","f":"acquire","key":"k","error":"held","owner":"w3-1"})",
        R"({"index":8,"time":9,"process":2,"type":"ok","f":"read","key":"k","value":41,"resource":"worker"})",
        R"({"index":8,"time":9,"process":2,"type":"ok","f":"write","key":"k","value":-41})",
        R"({"index":8,"time":9,"process":2,"type":"ok","f":"write","key":"k","value":18446744073709551615})",
        R"({"index":8,"time":9,"process":2,"type":"ok","f":"write","key":"k","value":9223372036854775807})",
        R"({"index":8,"time":9,"process":2,"type":"ok","f":"read","key":"k","value":null})",
        R"({"index":8,"time":9,"process":2,"type":"ok","f":"read","key":"k","value":true})",
        R"({"index":8,"time":9,"process":2,"type":"ok","f":"read","key":"k","value":"text é ✓"})",
        R"({"index":8,"time":9,"process":2,"type":"info","f":"release","key":null,"token":null,"error":null,"node":null,"ttl_ms":null,"owner":null,"resource":null})",
        R"(  { "index" : 8 , "time" : 9 , "process" : 2 , "type" : "info" , "f" : "renew" , "ttl_ms" : 5 }  )",
        R"({"index":8,"time":9,"process":2,"type":"info","f":"renew","ttl_ms":5})"
        "\r",
        R"({"index":8,"time":9,"process":"nemesis","type":"invoke","f":"stop-fault"})",
        R"({"index":7,"time":9,"process":3,"type":"ok","f":"acquire","key":"k","owner":"w3-1","valid_ms":-500})",
        R"({"index":7,"time":9,"process":3,"type":"ok","f":"renew","ttl_ms":3600000,"valid_ms":3600000})",
    };
    FastOpReader reader;
    for (const auto& line : lines) {
        const auto fast = fast_read(reader, line);
        ASSERT_TRUE(fast.has_value()) << line;
        EXPECT_EQ(describe(*fast), describe(op_from_json(parse_json_bounded(line)))) << line;
    }
}

TEST(FastOpReader, LeavesEverythingElseToTheReference) {
    const std::vector<std::string> lines = {
        // not JSON, or more than one value
        R"({oops)",
        R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire"} x)",
        R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire"}{})",
        R"([1,2])",
        "\xEF\xBB\xBF{\"index\":0,\"time\":1,\"process\":0,\"type\":\"invoke\",\"f\":\"acquire\"}",
        "{\"index\":0,\"time\":1,\"process\":0,\"type\":\"invoke\",\"f\":\"acq\xFFuire\"}",
        // escapes and control characters (decoding is left to nlohmann)
        R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire","key":"a\"b"})",
        R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire","key":"\ud800"})",
        "{\"index\":0,\"time\":1,\"process\":0,\"type\":\"invoke\",\"f\":\"acquire\",\"key\":\"a\tb\"}",
        // nested values, floats, unknown or repeated fields
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"generate-id","key":"seq","value":{"id":41}})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"read","value":[1]})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"read","value":1.5})",
        R"({"index":1,"time":5.0,"process":2,"type":"ok","f":"read"})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"read","colour":"red"})",
        R"({"index":1,"index":2,"time":5,"process":2,"type":"ok","f":"read"})",
        // wrong types and broken rules
        R"({"index":1,"time":5,"process":2,"type":"ok"})",
        R"({"index":-1,"time":5,"process":2,"type":"ok","f":"read"})",
        R"({"index":1,"time":-5,"process":2,"type":"ok","f":"read"})",
        R"({"index":1,"time":5,"process":-2,"type":"ok","f":"read"})",
        R"({"index":1,"time":5,"process":4294967296,"type":"ok","f":"read"})",
        R"({"index":1,"time":5,"process":"worker","type":"ok","f":"read"})",
        R"({"index":1,"time":5,"process":2,"type":"maybe","f":"read"})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"dance"})",
        R"({"index":1,"time":5,"process":"nemesis","type":"ok","f":"read"})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"start-fault"})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"renew","ttl_ms":0})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"read","token":"7"})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"acquire","token":-9223372036854775808})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"read","key":7})",
        R"({"index":1,"time":9223372036854775808,"process":2,"type":"ok","f":"read"})",
        // leases beyond 1 h (ttl_ms, valid_ms) and beyond what 32 bits hold
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"renew","ttl_ms":3600001})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"renew","ttl_ms":17592186044416})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"acquire","valid_ms":-3600001})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"acquire","valid_ms":4294967296})",
        R"({"index":1,"time":5,"process":2,"type":"ok","f":"acquire","valid_ms":"5"})",
    };
    FastOpReader reader;
    for (const auto& line : lines) EXPECT_FALSE(fast_read(reader, line).has_value()) << line;
}

TEST(FastOpReader, AHistoryReadsTheSameAsLineByLineThroughTheReference) {
    // Records of every kind, some on the fast path and some not, as parse_history reads them.
    const std::string text =
        R"({"f":"acquire","index":0,"key":"lock-0","owner":"c1-1","process":1,"time":10,"ttl_ms":30000,"type":"invoke"})"
        "\n"
        R"({"f":"acquire","index":1,"key":"lock-0","owner":"c1-1","process":1,"time":20,"token":1,"type":"ok"})"
        "\n\n"
        R"({"f":"start-fault","index":2,"process":"nemesis","time":30,"type":"invoke","value":{"fault":"pause-holder","targets":[]}})"
        "\n"
        R"({"f":"start-fault","index":3,"process":"nemesis","time":31,"type":"info","value":{"fault":"pause-holder","targets":[]}})"
        "\n"
        R"({"f":"write","index":4,"key":"lock-0","process":1,"time":40,"type":"invoke","value":1})"
        "\r\n"
        R"({"f":"write","index":5,"key":"lock-\u0030","process":1,"time":50,"type":"info","value":1,"error":"time\tout"})"
        "\n"
        R"({"f":"release","index":6,"key":"lock-0","owner":"c1-1","process":1,"time":60,"type":"invoke"})"
        "\n"
        R"({"f":"release","index":7,"key":"lock-0","owner":"c1-1","process":1,"time":70,"type":"ok"})"
        "\n";
    std::istringstream in(text);
    const History history = parse_history(in, "h.jsonl");
    std::istringstream reference_in(text);
    std::string line;
    std::size_t position = 0;
    while (std::getline(reference_in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        ASSERT_LT(position, history.size());
        EXPECT_EQ(describe(history[position]), describe(op_from_json(parse_json_bounded(line)))) << line;
        ++position;
    }
    EXPECT_EQ(position, history.size());
    EXPECT_EQ(history[5].key, "lock-0");
    EXPECT_EQ(history[5].error, "time\tout");
}
