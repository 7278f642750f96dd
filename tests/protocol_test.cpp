#include <gtest/gtest.h>

#include "workloads/protocol.hpp"

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
    WorkerReply r{9, OpType::Fail, std::nullopt, "held"};
    auto back = decode_reply(encode(r));
    EXPECT_EQ(back.id, 9);
    EXPECT_EQ(back.type, OpType::Fail);
    EXPECT_EQ(back.error, "held");
    EXPECT_FALSE(back.token);
}

TEST(Protocol, GarbageIsAProtocolError) {
    EXPECT_THROW(decode_reply("hello there"), ProtocolError);
    EXPECT_THROW(decode_reply("[1,2]"), ProtocolError);
    EXPECT_THROW(decode_reply(R"({"type":"ok"})"), ProtocolError);            // no id
    EXPECT_THROW(decode_reply(R"({"id":1,"type":"invoke"})"), ProtocolError); // not a completion
    EXPECT_THROW(decode_reply(R"({"id":1,"type":"ok","token":"x"})"), ProtocolError);
    EXPECT_THROW(decode_request(R"({"id":1})"), ProtocolError);               // no f
}

TEST(Protocol, HelloIsChecked) {
    EXPECT_NO_THROW(check_hello(encode_hello("redis-set-nx-px")));
    EXPECT_THROW(check_hello(R"({"hello":"lockcheck-worker","protocol":99})"), ProtocolError);
    EXPECT_THROW(check_hello(R"({"id":1,"type":"ok"})"), ProtocolError);
}
