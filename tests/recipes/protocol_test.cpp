#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "recipes/protocol.hpp"

using namespace lockcheck;

TEST(Protocol, RequestRoundTrips) {
    WorkerRequest r{7, "acquire", "lock", "w3-17", 1000, nullptr};
    auto back = decode_request(encode(r));
    EXPECT_EQ(back.id, 7);
    EXPECT_EQ(back.f, "acquire");
    EXPECT_EQ(back.owner, "w3-17");
    EXPECT_EQ(back.ttl_ms, 1000);
}

TEST(Protocol, ReplyRoundTrips) {
    WorkerReply r{9, OpType::Fail, std::nullopt, "held", nullptr};
    auto back = decode_reply(encode(r));
    EXPECT_EQ(back.id, 9);
    EXPECT_EQ(back.type, OpType::Fail);
    EXPECT_EQ(back.error, "held");
    EXPECT_FALSE(back.token);
}

TEST(Protocol, AReplyMayTellTheLeaseLeftAtTheGrant) {
    WorkerReply r{9, OpType::Ok, 42, std::nullopt, nullptr, -500};
    const std::string line = encode(r);
    EXPECT_EQ(line, R"({"id":9,"token":42,"type":"ok","valid_ms":-500})");
    EXPECT_EQ(decode_reply(line).valid_ms, -500);
    EXPECT_FALSE(decode_reply(R"({"id":9,"type":"ok"})").valid_ms) << "optional: older workers send none";
    EXPECT_THROW(decode_reply(R"({"id":9,"type":"ok","valid_ms":3600001})"), ProtocolError);
    EXPECT_THROW(decode_reply(R"({"id":9,"type":"ok","valid_ms":"950"})"), ProtocolError);
}

TEST(Protocol, NumberTooLargeIsAProtocolError) {
    // Found by fuzz_protocol in its first 20 s: this used to terminate the controller.
    EXPECT_THROW(decode_reply(R"({"id":8658e9659623781719,"type":"ok"})"), ProtocolError);
}

TEST(Protocol, FloatOrOutOfRangeIntegerFieldsAreProtocolErrors) {
    // Found by fuzz_protocol in CI: converting 1e300 to an integer was undefined behaviour.
    EXPECT_THROW(decode_request(R"({"id":1,"f":"acquire","ttl_ms":1e300})"), ProtocolError);
    EXPECT_THROW(decode_reply(R"({"id":1,"type":"ok","token":-1e300})"), ProtocolError);
    EXPECT_THROW(decode_reply(R"({"id":1.5,"type":"ok"})"), ProtocolError);
    EXPECT_THROW(decode_reply(R"({"id":18446744073709551615,"type":"ok"})"), ProtocolError);
    EXPECT_THROW(decode_init(R"({"id":0,"f":"init","protocol":1,"process":4294967296})"), ProtocolError);
    EXPECT_THROW(decode_init(R"({"id":0,"f":"init","protocol":1e300})"), ProtocolError);
    EXPECT_EQ(decode_reply(R"({"id":1,"type":"ok","token":9223372036854775807})").token, INT64_MAX);
}

TEST(Protocol, GarbageIsAProtocolError) {
    EXPECT_THROW(decode_reply("hello there"), ProtocolError);
    EXPECT_THROW(decode_reply("[1,2]"), ProtocolError);
    EXPECT_THROW(decode_reply(R"({"type":"ok"})"), ProtocolError);             // no id
    EXPECT_THROW(decode_reply(R"({"id":1,"type":"invoke"})"), ProtocolError);  // not a completion
    EXPECT_THROW(decode_reply(R"({"id":1,"type":"ok","token":"x"})"), ProtocolError);
    EXPECT_THROW(decode_request(R"({"id":1})"), ProtocolError);  // no f
}

TEST(Protocol, HandshakeRoundTrips) {
    WorkerInit init{3,    "redis-set-nx-px", "redis-single",          {"10.77.5.1:6379"},
                    1000, "abc123",          {{"expire_gap_ms", 50}}, ClientCredentials{"default", "s3cret"}};
    const auto back = decode_init(encode_init(init));
    EXPECT_EQ(back.process, 3);
    EXPECT_EQ(back.nodes, init.nodes);
    EXPECT_EQ(back.auth, init.auth) << "the login reaches the worker";
    init.auth.reset();
    EXPECT_FALSE(decode_init(encode_init(init)).auth.has_value()) << "no login (ZooKeeper, etcd): no auth field";
    EXPECT_EQ(encode_init(init).find("auth"), std::string::npos);
    EXPECT_EQ(back.run_id, "abc123");
    EXPECT_EQ(back.recipe_options["expire_gap_ms"], 50);
    const auto hello = decode_hello(encode_hello({"my client", {"fencing"}}));
    EXPECT_EQ(hello.client, "my client");
    EXPECT_EQ(hello.supports, std::vector<std::string>{"fencing"});
}

TEST(Protocol, HandshakeRejectsOtherVersionsAndRefusals) {
    EXPECT_THROW(decode_hello(R"({"id":0,"type":"ok","protocol":99})"), ProtocolError);
    EXPECT_THROW(decode_hello(R"({"id":0,"type":"ok"})"), ProtocolError);
    EXPECT_THROW(decode_hello(R"({"id":1,"type":"ok","protocol":1})"), ProtocolError);
    try {
        decode_hello(R"({"id":0,"type":"fail","error":"unknown recipe 'x'"})");
        FAIL();
    } catch (const ProtocolError& e) {
        EXPECT_STREQ(e.what(), "worker refused init: unknown recipe 'x'");
    }
    EXPECT_THROW(decode_init(R"({"id":0,"f":"acquire","protocol":1})"), ProtocolError);
    EXPECT_THROW(decode_init(R"({"id":0,"f":"init","protocol":2})"), ProtocolError);
}

namespace {

/// The request and reply lines as nlohmann's DOM wrote them before they were
/// written by hand: the reference the encoders must match byte for byte.
std::string reference_text(const WorkerRequest& request) {
    nlohmann::json j{{"id", request.id}, {"f", request.f}, {"key", request.key}};
    if (request.owner) j["owner"] = *request.owner;
    if (request.ttl_ms) j["ttl_ms"] = *request.ttl_ms;
    if (!request.value.is_null()) j["value"] = request.value;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string reference_text(const WorkerReply& reply) {
    nlohmann::json j{{"id", reply.id}, {"type", to_string(reply.type)}};
    if (reply.token) j["token"] = *reply.token;
    if (reply.error) j["error"] = *reply.error;
    if (!reply.value.is_null()) j["value"] = reply.value;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

TEST(Protocol, RequestsAreWrittenAsNlohmannWroteThem) {
    const std::vector<WorkerRequest> requests{
        {7, "acquire", "lock", "w3-17", 1000, nullptr},
        {8, "read", "lock", std::nullopt, std::nullopt, nullptr},
        {9, "write", "lock-4", std::nullopt, std::nullopt, 6},
        {-1, "release", "", "w\"1\\", std::nullopt, nlohmann::json{{"a", {1, 2.5}}}},
        {INT64_MAX, "stock-init", "caf\xc3\xa9 \xff", "\x01", 1, "text"},
    };
    for (const auto& request : requests) EXPECT_EQ(encode(request), reference_text(request)) << request.f;
    EXPECT_EQ(encode(requests[0]), R"({"f":"acquire","id":7,"key":"lock","owner":"w3-17","ttl_ms":1000})");
}

TEST(Protocol, RepliesAreWrittenAsNlohmannWroteThem) {
    const std::vector<WorkerReply> replies{
        {7, OpType::Ok, 42, std::nullopt, nullptr},
        {10, OpType::Fail, std::nullopt, "not-owner", nullptr},
        {11, OpType::Info, std::nullopt, "timeout: \"x\"\n", nlohmann::json{{"removed_owner", "w2-9"}}},
        {-1, OpType::Fail, INT64_MIN, "bad \xff", 5},
        {0, OpType::Ok, std::nullopt, std::nullopt, nlohmann::json::parse(R"({"id": 3})")},
    };
    for (const auto& reply : replies) EXPECT_EQ(encode(reply), reference_text(reply)) << reply.id;
    EXPECT_EQ(encode(replies[0]), R"({"id":7,"token":42,"type":"ok"})");
}
