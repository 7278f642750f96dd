// The hand-written record and JSON encoders against the nlohmann reference
// they replace on the recorder's path: every text must be byte for byte
// dump_json's.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/json_text.hpp"
#include "core/json_writer.hpp"
#include "core/op_record_text.hpp"
#include "tests/support/history_test_support.hpp"

using namespace lockcheck;

namespace {

std::string record_text(const Op& op) {
    std::string out;
    append_op_record(out, op);
    return out;
}

std::string value_text(const nlohmann::json& value) {
    std::string out;
    append_json_value(out, value);
    return out;
}

Op lock_op() {
    Op op;
    op.index = 41;
    op.time = 1'234'567;
    op.process = 3;
    op.type = OpType::Invoke;
    op.f = "acquire";
    op.key = "lock-413";
    op.owner = "w3-17";
    op.ttl_ms = 1000;
    return op;
}

}  // namespace

TEST(OpRecordText, WritesTheCommonLockRecordsAsTheReferenceDoes) {
    Op invoke = lock_op();
    EXPECT_EQ(
        record_text(invoke),
        R"({"f":"acquire","index":41,"key":"lock-413","owner":"w3-17","process":3,"time":1234567,"ttl_ms":1000,"type":"invoke"})");
    Op ok = invoke;
    ok.type = OpType::Ok;
    ok.ttl_ms.reset();
    ok.token = 42;
    EXPECT_EQ(record_text(ok), dump_json(op_to_json(ok)));
    Op read = lock_op();
    read.f = "read";
    read.owner.reset();
    read.ttl_ms.reset();
    read.type = OpType::Ok;
    read.value = 6;
    read.resource = "worker";
    EXPECT_EQ(record_text(read), dump_json(op_to_json(read)));
    Op failed = lock_op();
    failed.type = OpType::Fail;
    failed.error = "held";
    failed.node = "n2";
    EXPECT_EQ(record_text(failed), dump_json(op_to_json(failed)));
}

TEST(OpRecordText, WritesNemesisRecordsAndNestedValuesAsTheReferenceDoes) {
    const Op fault = lockcheck::testing::nemesis_op(
        0, 0, OpType::Info, "start-fault", {{"fault", "pause-holder"}, {"targets", {"worker 3", 2.5, nullptr, true}}});
    EXPECT_EQ(record_text(fault), dump_json(op_to_json(fault)));
}

TEST(OpRecordText, EscapesStringsAsTheReferenceDoes) {
    // Quotes, backslashes, control characters, non-ASCII and bytes that are
    // not UTF-8 (a worker's error text can hold any of them).
    for (const std::string error : {"say \"no\"", "back\\slash", "tab\there", "new\nline", "bell\x07", "del\x7f",
                                    "caf\xc3\xa9", "bad \xff byte", "cut \xe2\x82", ""}) {
        Op op = lock_op();
        op.type = OpType::Info;
        op.error = error;
        op.owner = error;
        op.value = error;
        EXPECT_EQ(record_text(op), dump_json(op_to_json(op))) << "error text: " << error;
    }
}

TEST(OpRecordText, MatchesTheReferenceOnRandomOps) {
    std::mt19937_64 random(16);
    const auto pick_text = [&](std::initializer_list<const char*> texts) {
        return std::string(*(texts.begin() + random() % texts.size()));
    };
    for (int i = 0; i < 2000; ++i) {
        Op op;
        op.index = static_cast<std::int64_t>(random() >> 1);
        op.time = static_cast<std::int64_t>(random() >> (random() % 63));
        op.process = random() % 5 == 0 ? kNemesisProcess : static_cast<int>(random() % 300);
        op.type = static_cast<OpType>(random() % 4);
        op.f = pick_text({"acquire", "release", "renew", "read", "write", "start-fault", "decrement"});
        op.key = pick_text({"", "lock", "lock-7", "k\"ey"});
        if (random() % 2) op.token = static_cast<std::int64_t>(random()) >> (random() % 64);
        if (random() % 3 == 0) op.error = pick_text({"held", "timeout", "worker exited", "x\ty", "\xc3\x28"});
        if (random() % 4 == 0) op.node = pick_text({"n1", "10.77.5.1:6379"});
        if (random() % 2) op.ttl_ms = static_cast<std::int64_t>(random() % 100000) + 1;
        if (random() % 3 == 0) op.valid_ms = static_cast<std::int64_t>(random() % 200000) - 100000;
        if (random() % 2) op.owner = pick_text({"w1-1", "w123-4567890123456789", "\xe2\x82\xac"});
        if (random() % 4 == 0) op.resource = "worker";
        switch (random() % 6) {
            case 0: break;
            case 1: op.value = static_cast<std::int64_t>(random()); break;
            case 2: op.value = static_cast<std::uint64_t>(random()); break;
            case 3: op.value = pick_text({"v", "a\"b"}); break;
            case 4: op.value = {{"removed_owner", "w2-9"}}; break;
            default: op.value = random() % 2 == 0; break;
        }
        ASSERT_EQ(record_text(op), dump_json(op_to_json(op))) << "op " << i;
    }
}

TEST(JsonWriter, WritesScalarsAsTheReferenceDoes) {
    for (const nlohmann::json& value :
         {nlohmann::json(nullptr), nlohmann::json(true), nlohmann::json(false), nlohmann::json(0),
          nlohmann::json(INT64_MIN), nlohmann::json(INT64_MAX), nlohmann::json(UINT64_MAX), nlohmann::json(-1.5),
          nlohmann::json("plain"), nlohmann::json("\x01"), nlohmann::json::array({1, "a"}),
          nlohmann::json::parse(R"({"id": 5})")})
        EXPECT_EQ(value_text(value), dump_json(value)) << value.type_name();
}
