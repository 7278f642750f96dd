// etcd's record of a run (clusters/servers/etcd_history.hpp): the gateway's
// watch events as the record's objects (base64 and int64 text decoded, the
// deleted key's last value and lease from prev_kv), events that are none
// refused, and a member that answers nothing read as a record not read.
#include <gtest/gtest.h>

#include "clusters/servers/etcd_history.hpp"
#include "core/base64.hpp"

using namespace lockcheck;

TEST(EtcdHistory, APutOfTheGatewayIsAnEventOfTheRecord) {
    const auto event = nlohmann::json::parse(R"({"kv":{"key":")" + base64_encode("/lockcheck/lock/a") +
                                             R"(","create_revision":"2","mod_revision":"2","version":"1","value":")" +
                                             base64_encode("w1-1") + R"(","lease":"4111120307622743813"}})");
    const auto record = etcd_watch_event_record(event, 0, 256);
    EXPECT_EQ(record["rev"], 2);
    EXPECT_EQ(record["type"], "PUT");
    EXPECT_EQ(record["key"], "/lockcheck/lock/a");
    EXPECT_EQ(record["value"], "w1-1");
    EXPECT_EQ(record["version"], 1);
    EXPECT_EQ(record["lease"], 4111120307622743813LL);
}

TEST(EtcdHistory, ADeleteNamesTheDeletedKeysOwnerAndLease) {
    const auto event = nlohmann::json::parse(
        R"({"type":"DELETE","kv":{"key":")" + base64_encode("/l/b") + R"(","mod_revision":"8"},"prev_kv":{"key":")" +
        base64_encode("/l/b") + R"(","create_revision":"3","value":")" + base64_encode("w2-1") + R"(","lease":"77"}})");
    const auto record = etcd_watch_event_record(event, 1, 256);
    EXPECT_EQ(record["type"], "DELETE");
    EXPECT_EQ(record["sub"], 1);
    EXPECT_EQ(record["prev_value"], "w2-1");
    EXPECT_EQ(record["prev_create_revision"], 3);
    EXPECT_EQ(record["prev_lease"], 77);
}

TEST(EtcdHistory, ALongValueIsCut) {
    const auto event = nlohmann::json::parse(R"({"kv":{"key":"YQ==","mod_revision":"5","value":")" +
                                             base64_encode(std::string(1000, 'x')) + R"("}})");
    EXPECT_EQ(etcd_watch_event_record(event, 0, 16)["value"].get<std::string>().size(), 16u);
}

TEST(EtcdHistory, WhatIsNoEventIsRefused) {
    EXPECT_THROW(etcd_watch_event_record(nlohmann::json::object(), 0, 16), std::invalid_argument);
    EXPECT_THROW(etcd_watch_event_record(nlohmann::json::parse(R"({"kv":{"key":"%%%","mod_revision":"1"}})"), 0, 16),
                 std::invalid_argument);
}

TEST(EtcdHistory, NoMemberThatAnswersIsARecordNotRead) {
    // 192.0.2.1 (TEST-NET-1, RFC 5737) is never assigned: no member answers there within the limit.
    EtcdHistoryLimits limits;
    limits.per_member = std::chrono::milliseconds(300);
    const EtcdHistory h = read_etcd_history({"192.0.2.1"}, limits);
    EXPECT_FALSE(h.read);
    EXPECT_NE(h.why.find("member 192.0.2.1 did not answer"), std::string::npos) << h.why;
    EXPECT_FALSE(read_etcd_history({}).read);
}
