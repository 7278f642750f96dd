// ZooKeeper's transaction log as a witness (checkers/zk_witness.hpp): on a
// constructed history whose overlap the history alone leaves undecided
// (worker 2's acquire waits for seconds while worker 1's 2 s session may or
// may not have ended) and constructed transaction logs, the rule must find
// the overlap after the first holder's session expired on the server (d), the
// grant on a node already removed (a) and the grant on another session's node
// (b), and must not decide the near misses (the removal after the grant's
// zxid, an expiry in a run whose servers' clocks a fault moved, a session
// its client closed, the node of the client's own session, a grant that
// reported no zxid).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "checkers/checker_names.hpp"
#include "checkers/overlap_blame.hpp"
#include "checkers/run_checkers.hpp"
#include "checkers/server_record.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

constexpr std::int64_t kFirstSession = 0x100;
constexpr std::int64_t kSecondSession = 0x200;
const std::string kFirstNode = "/lockcheck/lock/lock-0000000000";
const std::string kSecondNode = "/lockcheck/lock/lock-0000000001";

/// Worker 1 (owner p1-1, session 0x100) is granted node ...0000 (created at
/// zxid 0x10) at 10 ms and its release at 5000 ms fails not-owner (its node
/// was gone); worker 2 (p2-2) invokes at 20 ms and is granted node ...0001
/// (created at 0x11) at 4000 ms by an answer at `grant_zxid` (none: not
/// reported), reporting session `second_session`. Both sessions are 2000 ms.
/// With `server_clock_fault`, a clock-skew fault strikes server n1 at 15 ms.
History waiting_overlap(std::optional<std::int64_t> grant_zxid, std::int64_t second_session = kSecondSession,
                        bool server_clock_fault = false) {
    HistoryBuilder h;
    h.acquire_invoke(0, 1, 2000);
    h.acquire_done(10, 1, OpType::Ok, 0x10);
    h.history().back().value = {
        {"zk_node", kFirstNode}, {"zk_session", kFirstSession}, {"create_zxid", 0x10}, {"grant_zxid", 0x10}};
    if (server_clock_fault) {
        h.pause(15, 0, 1, "clock-skew");
        h.history().back().value["targets"] = {"n1"};
    }
    h.acquire_invoke(20, 2, 2000);
    h.acquire_done(4000, 2, OpType::Ok, 0x11);
    h.history().back().value = {{"zk_node", kSecondNode}, {"zk_session", second_session}, {"create_zxid", 0x11}};
    if (grant_zxid) h.history().back().value["grant_zxid"] = *grant_zxid;
    h.release_invoke(5000, 1);
    h.release_done(5010, 1, OpType::Fail);
    h.history().back().error = "not-owner";
    h.release(6000, 6010, 2);
    return h.history();
}

std::string create(std::int64_t zxid, std::int64_t session, const std::string& path, const std::string& owner) {
    return R"({"zxid":)" + std::to_string(zxid) + R"(,"sub":0,"session":)" + std::to_string(session) +
           R"(,"cxid":1,"type":"create","path":")" + path + R"(","owner":")" + owner + "\",\"ephemeral\":true}\n";
}

std::string close_session(std::int64_t zxid, std::int64_t session, std::int64_t cxid) {
    return R"({"zxid":)" + std::to_string(zxid) + R"(,"session":)" + std::to_string(session) + R"(,"cxid":)" +
           std::to_string(cxid) + R"(,"type":"closeSession"})" + "\n";
}

std::string remove(std::int64_t zxid, std::int64_t session, const std::string& path) {
    return R"({"zxid":)" + std::to_string(zxid) + R"(,"session":)" + std::to_string(session) +
           R"(,"cxid":3,"type":"delete","path":")" + path + "\"}\n";
}

/// A ZooKeeper record: both sessions created, p1-1's node at 0x10, p2-2's at
/// 0x11 by `second_creator`, then `rest`.
ServerRecord record_with(const std::string& rest, std::int64_t second_creator = kSecondSession) {
    const std::string text = R"({"server":"zookeeper","read":true,"zxid":32,"servers":3,"events":6,"seconds":0.3})"
                             "\n"
                             R"({"zxid":1,"session":256,"cxid":0,"type":"createSession","timeout_ms":2000})"
                             "\n"
                             R"({"zxid":2,"session":512,"cxid":0,"type":"createSession","timeout_ms":2000})"
                             "\n" +
                             create(0x10, kFirstSession, kFirstNode, "p1-1") +
                             create(0x11, second_creator, kSecondNode, "p2-2") + rest;
    return parse_server_record(text);
}

const CheckerResult& mutual_exclusion(const CheckReport& report) {
    for (const auto& c : report.checkers)
        if (c.name == checker_name::kMutualExclusion) return c;
    throw std::logic_error("no mutual-exclusion result");
}

TEST(ZkWitness, TheOverlapIsUndecidedWithoutTheRecord) {
    const CheckReport report = run_checkers(waiting_overlap(0x12));
    const auto& me = mutual_exclusion(report);
    ASSERT_EQ(me.violations.size(), 1u);
    EXPECT_EQ(me.violations[0].kind, kOverlapLeaseUncertain);
    EXPECT_TRUE(report.witness.is_null());
}

TEST(ZkWitness, AnOverlapAfterTheFirstSessionExpiredOnTheServerIsLeaseExpired) {
    // p1-1's session expired (the server's closeSession, cxid 0) at 0x12; p2-2's grant was decided at 0x12.
    const ServerRecord record = record_with(close_session(0x12, kFirstSession, 0));
    const CheckReport report = run_checkers(waiting_overlap(0x12), {}, &record);
    const auto& me = mutual_exclusion(report);
    ASSERT_EQ(me.violations.size(), 1u);
    EXPECT_EQ(me.violations[0].kind, kOverlapLeaseExpired);
    EXPECT_NE(me.violations[0].description.find("p1-1's node " + kFirstNode + " was removed at zxid 0x12"),
              std::string::npos)
        << me.violations[0].description;
    EXPECT_NE(me.violations[0].description.find("when its session 0x100 expired on the server"), std::string::npos);
    EXPECT_EQ(me.stats["lease_uncertain"], 0);
    EXPECT_EQ(me.stats["lease_expired"], 1);
    EXPECT_EQ(report.witness["server"], "zookeeper");
    EXPECT_EQ(report.witness["zxid"], 32);
    EXPECT_EQ(report.witness["events"], 5);
    EXPECT_EQ(report.witness["nodes"], 2);
    EXPECT_EQ(report.witness["decided"], 1);
    EXPECT_EQ(report.witness["decided_as"][kOverlapLeaseExpired], 1);
}

TEST(ZkWitness, AnExpiryAfterTheLaterGrantDecidesNothing) {
    // Near miss: the grant was decided at 0x11, before the expiry at 0x12.
    const ServerRecord record = record_with(close_session(0x12, kFirstSession, 0));
    const CheckReport report = run_checkers(waiting_overlap(0x11), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
    EXPECT_EQ(report.witness["decided"], 0);
    EXPECT_EQ(report.witness["undecided"], 1);
}

TEST(ZkWitness, AnExpiryInARunWhoseServerClocksMovedDecidesNothing) {
    // Near miss: the same record, but clock-skew struck a server: a leader whose clock runs fast expires
    // sessions that are still pinging, so the expiry does not show that the holder stalled.
    const ServerRecord record = record_with(close_session(0x12, kFirstSession, 0));
    const CheckReport report = run_checkers(waiting_overlap(0x12, kSecondSession, true), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
    EXPECT_EQ(report.witness["expiries_trusted"], false);
    EXPECT_EQ(report.witness["decided"], 0);
}

TEST(ZkWitness, ASessionItsClientClosedIsNoExpiry) {
    // Near miss: the close had the client's cxid: the client ended its session, the server did not.
    const ServerRecord record = record_with(close_session(0x12, kFirstSession, 7));
    const CheckReport report = run_checkers(waiting_overlap(0x12), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

TEST(ZkWitness, AGrantOnANodeAlreadyRemovedIsTheClients) {
    // p2-2's own node went with its expired session at 0x12; its grant was decided by an answer at 0x13.
    const ServerRecord record = record_with(close_session(0x12, kSecondSession, 0));
    const CheckReport report = run_checkers(waiting_overlap(0x13), {}, &record);
    const auto& me = mutual_exclusion(report);
    ASSERT_EQ(me.violations.size(), 1u);
    EXPECT_EQ(me.violations[0].kind, kGrantWithoutOwnKey);
    EXPECT_NE(me.violations[0].description.find("p2-2's own node " + kSecondNode + " was removed at zxid 0x12"),
              std::string::npos)
        << me.violations[0].description;
    EXPECT_EQ(me.violations[0].details["blame"], blame_class(Blame::GrantWithoutOwnKey).whose);
    EXPECT_EQ(me.violations[0].details["server_order"]["own_node"]["end"],
              "removed when its session expired on the server");
}

TEST(ZkWitness, ANodeRemovedAfterTheGrantDecidesNothing) {
    // Near miss: p2-2's node was deleted (by its own session) at 0x14, after the grant at 0x13.
    const ServerRecord record = record_with(remove(0x14, kSecondSession, kSecondNode));
    const CheckReport report = run_checkers(waiting_overlap(0x13), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

TEST(ZkWitness, AGrantOnAnotherSessionsNodeIsTheClients) {
    // p2-2 reports session 0x200, but its node was created by session 0x300, which expired at 0x15.
    const ServerRecord record = record_with(close_session(0x15, 0x300, 0), 0x300);
    const CheckReport report = run_checkers(waiting_overlap(0x12), {}, &record);
    const auto& me = mutual_exclusion(report);
    ASSERT_EQ(me.violations.size(), 1u);
    EXPECT_EQ(me.violations[0].kind, kGrantWithoutOwnKey);
    EXPECT_NE(me.violations[0].description.find("p2-2 was granted node " + kSecondNode +
                                                ", which session 0x300 created (zxid 0x11), not its own session 0x200"),
              std::string::npos)
        << me.violations[0].description;
    EXPECT_NE(me.violations[0].description.find("removed when its session expired on the server at zxid 0x15"),
              std::string::npos);
}

TEST(ZkWitness, AGrantOnItsOwnSessionsNodeDecidesNothing) {
    // Near miss: the same record, but the client reports the session that made the node.
    const ServerRecord record = record_with(close_session(0x15, 0x300, 0), 0x300);
    const CheckReport report = run_checkers(waiting_overlap(0x12, 0x300), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

TEST(ZkWitness, AGrantWithoutItsZxidCannotBePlaced) {
    const ServerRecord record = record_with(close_session(0x12, kFirstSession, 0));
    const CheckReport report = run_checkers(waiting_overlap(std::nullopt), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

TEST(ZkWitness, ALogLineThatDoesNotReadLeavesTheClassesStanding) {
    const ServerRecord record = parse_server_record(
        "{\"server\":\"zookeeper\",\"read\":true,\"zxid\":3}\n{\"zxid\":1,\"session\":1,\"type\":\"setData\"}\n");
    EXPECT_FALSE(record.read);
    EXPECT_NE(record.why.find("line 2"), std::string::npos) << record.why;
    const CheckReport report = run_checkers(waiting_overlap(0x12), {}, &record);
    EXPECT_EQ(report.witness["read"], false);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

}  // namespace
