// The servers' own record as a witness (checkers/server_witness.hpp): on
// constructed histories whose overlap the history alone leaves undecided
// (worker 2's acquire waits for seconds while worker 1's 2 s lease may or may
// not have ended), and constructed etcd records, the rule must find the
// grant after the owner's own key was gone (etcd-io/etcd#11456) and the
// overlap after the first key expired on the server, and must not decide
// the near misses (the key deleted after the grant's revision, a delete
// another client reported, a grant without a reported revision).
#include <gtest/gtest.h>

#include <string>

#include "checkers/checker_names.hpp"
#include "checkers/overlap_blame.hpp"
#include "checkers/revision_clock.hpp"
#include "checkers/run_checkers.hpp"
#include "checkers/server_record.hpp"
#include "checkers/server_witness.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// Worker 1 (owner p1-1) holds from 10 ms and releases at 5000 ms (its
/// release reports the delete at revision 7, or, when `first_key_gone`, fails
/// not-owner: its key was already gone); worker 2 (owner p2-2) invokes its
/// acquire at 20 ms and is granted at 4000 ms, by a read at revision
/// `grant_revision` (none: not reported). Both leases are 2000 ms. With
/// `other_delete_at`, worker 3's ok release at 30 ms reports a delete at that revision.
History waiting_overlap(std::optional<std::int64_t> grant_revision, bool first_key_gone = false,
                        std::optional<std::int64_t> other_delete_at = std::nullopt) {
    HistoryBuilder h;
    h.acquire_invoke(0, 1, 2000);
    h.acquire_done(10, 1, OpType::Ok, 2);
    h.history().back().value = {{"key", "/l/a"}, {"create_revision", 2}, {"grant_revision", 2}};
    h.acquire_invoke(20, 2, 2000);
    if (other_delete_at) {
        h.release(30, 40, 3);
        h.history().back().value = {{"deleted", 1}, {"revision", *other_delete_at}};
    }
    h.acquire_done(4000, 2, OpType::Ok, 3);
    h.history().back().value = {{"key", "/l/b"}, {"create_revision", 3}};
    if (grant_revision) h.history().back().value["grant_revision"] = *grant_revision;
    h.release_invoke(5000, 1);
    h.release_done(5010, 1, first_key_gone ? OpType::Fail : OpType::Ok);
    h.history().back().value =
        first_key_gone ? nlohmann::json{{"deleted", 0}} : nlohmann::json{{"deleted", 1}, {"revision", 7}};
    if (first_key_gone) h.history().back().error = "not-owner";
    h.release(6000, 6010, 2);
    return h.history();
}

std::string put(std::int64_t rev, const std::string& key, const std::string& owner) {
    return R"({"rev":)" + std::to_string(rev) + R"(,"sub":0,"type":"PUT","key":")" + key + R"(","value":")" + owner +
           R"(","create_revision":)" + std::to_string(rev) + R"(,"version":1,"lease":)" + std::to_string(100 + rev) +
           "}\n";
}

std::string del(std::int64_t rev, const std::string& key, const std::string& owner) {
    return R"({"rev":)" + std::to_string(rev) + R"(,"sub":0,"type":"DELETE","key":")" + key + R"(","prev_value":")" +
           owner + "\"}\n";
}

/// An etcd record: p1-1's key /l/a created at 2, p2-2's /l/b at 3, an
/// unrelated key at 5, then the deletes given.
ServerRecord record_with(const std::string& deletes) {
    const std::string text = R"({"server":"etcd","read":true,"revision":9,"events":6,"seconds":0.2})"
                             "\n" +
                             put(2, "/l/a", "p1-1") + put(3, "/l/b", "p2-2") + put(5, "/other", "x") + deletes;
    return parse_server_record(text);
}

const CheckerResult& mutual_exclusion(const CheckReport& report) {
    for (const auto& c : report.checkers)
        if (c.name == checker_name::kMutualExclusion) return c;
    throw std::logic_error("no mutual-exclusion result");
}

TEST(ServerWitness, TheOverlapIsUndecidedWithoutTheRecord) {
    const CheckReport report = run_checkers(waiting_overlap(5));
    const auto& me = mutual_exclusion(report);
    ASSERT_EQ(me.violations.size(), 1u);
    EXPECT_EQ(me.violations[0].kind, kOverlapLeaseUncertain);
    EXPECT_TRUE(report.witness.is_null());
}

TEST(ServerWitness, AGrantAfterTheOwnersOwnKeyExpiredIsTheClients) {
    // p2-2's key expired at revision 4; its grant was decided by a read at revision 5.
    const ServerRecord record = record_with(del(4, "/l/b", "p2-2") + del(7, "/l/a", "p1-1"));
    const CheckReport report = run_checkers(waiting_overlap(5), {}, &record);
    const auto& me = mutual_exclusion(report);
    ASSERT_EQ(me.violations.size(), 1u);
    EXPECT_EQ(me.violations[0].kind, kGrantWithoutOwnKey);
    EXPECT_NE(me.violations[0].description.find("p2-2's own key /l/b was deleted at revision 4"), std::string::npos)
        << me.violations[0].description;
    EXPECT_EQ(me.violations[0].details["blame"], blame_class(Blame::GrantWithoutOwnKey).whose);
    EXPECT_EQ(me.stats["lease_uncertain"], 0);
    EXPECT_EQ(me.stats["grant_without_own_key"], 1);
    EXPECT_EQ(report.witness["decided"], 1);
    EXPECT_EQ(report.witness["undecided"], 1);
    EXPECT_EQ(report.witness["decided_as"][kGrantWithoutOwnKey], 1);
}

TEST(ServerWitness, AnOwnKeyDeletedAfterTheGrantDecidesNothing) {
    // Near miss: p2-2's key went at revision 6, after the read at 5 that granted it.
    const ServerRecord record = record_with(del(6, "/l/b", "p2-2") + del(7, "/l/a", "p1-1"));
    const CheckReport report = run_checkers(waiting_overlap(5), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
    EXPECT_EQ(report.witness["decided"], 0);
}

TEST(ServerWitness, AGrantWithoutItsRevisionCannotBePlaced) {
    const ServerRecord record = record_with(del(4, "/l/b", "p2-2") + del(7, "/l/a", "p1-1"));
    const CheckReport report = run_checkers(waiting_overlap(std::nullopt), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

TEST(ServerWitness, AnOverlapAfterTheFirstKeyExpiredOnTheServerIsLeaseExpired) {
    // p1-1's key was deleted at 4 and no client reported deleting it: its lease expired
    // before p2-2's grant at 5 (p1-1's release then found no key of its own).
    const ServerRecord record = record_with(del(4, "/l/a", "p1-1") + del(8, "/l/b", "p2-2"));
    const CheckReport report = run_checkers(waiting_overlap(5, true), {}, &record);
    const auto& me = mutual_exclusion(report);
    ASSERT_EQ(me.violations.size(), 1u);
    EXPECT_EQ(me.violations[0].kind, kOverlapLeaseExpired);
    EXPECT_NE(me.violations[0].description.find("p1-1's key /l/a expired on the server at revision 4"),
              std::string::npos)
        << me.violations[0].description;
    EXPECT_EQ(me.stats["lease_expired"], 1);
    EXPECT_EQ(me.stats["lease_uncertain"], 0);
}

TEST(ServerWitness, TheFirstKeyDeletedAfterTheLaterGrantDecidesNothing) {
    // Near miss: p1-1's key expired at revision 6, after p2-2's grant at 5.
    const ServerRecord record = record_with(del(6, "/l/a", "p1-1") + del(8, "/l/b", "p2-2"));
    const CheckReport report = run_checkers(waiting_overlap(5, true), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

TEST(ServerWitness, AKeyAnotherClientReportedDeletingDidNotExpire) {
    // Near miss: worker 3's ok release reported the delete at revision 4 that removed p1-1's key.
    const ServerRecord record = record_with(del(4, "/l/a", "p1-1") + del(8, "/l/b", "p2-2"));
    const CheckReport report = run_checkers(waiting_overlap(5, true, 4), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
}

/// Worker 1 holds from 10 ms to 5000 ms and renews at 3000 ms, answered ok
/// with the keep-alive reply's revision `renew_revision`.
History renewed_hold(std::int64_t renew_revision) {
    HistoryBuilder h;
    h.acquire_invoke(0, 1, 2000);
    h.acquire_done(10, 1, OpType::Ok, 2);
    h.history().back().value = {{"key", "/l/a"}, {"create_revision", 2}, {"grant_revision", 2}};
    h.renew(3000, 3010, 1, OpType::Ok, 2000);
    h.history().back().value = {{"lease_ttl_s", 2}, {"revision", renew_revision}};
    h.release(5000, 5010, 1, OpType::Fail);
    h.history().back().error = "not-owner";
    return h.history();
}

const CheckerResult* renew_after_loss(const CheckReport& report) {
    for (const auto& c : report.checkers)
        if (c.name == checker_name::kRenewAfterLoss) return &c;
    return nullptr;
}

TEST(ServerWitness, ARenewAnsweredOkAfterItsKeyExpiredIsTheClients) {
    // p1-1's key expired at revision 4; its renew's ok reported revision 6.
    const ServerRecord record = record_with(del(4, "/l/a", "p1-1"));
    const CheckReport report = run_checkers(renewed_hold(6), {}, &record);
    const CheckerResult* r = renew_after_loss(report);
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->violations.size(), 1u);
    EXPECT_EQ(r->violations[0].kind, kRenewAfterExpiry);
    EXPECT_EQ(r->valid, Validity::Invalid);
    EXPECT_EQ(report.valid, Validity::Invalid);
    EXPECT_EQ(report.witness["renews_after_expiry"], 1);
}

TEST(ServerWitness, ARenewServedBeforeItsKeyExpiredIsNoFinding) {
    // Near miss: the renew was served at revision 3, before the expiry at 4.
    const ServerRecord record = record_with(del(4, "/l/a", "p1-1"));
    const CheckReport report = run_checkers(renewed_hold(3), {}, &record);
    ASSERT_NE(renew_after_loss(report), nullptr);
    EXPECT_TRUE(renew_after_loss(report)->violations.empty());
    EXPECT_EQ(report.witness["renews_after_expiry"], 0);
}

/// Worker 1 (p1-1) holds from 5 ms with a 1000 ms lease and renews at 1400
/// ms; worker 2 (p2-2), invoked at 100 ms, is told it holds at 1200 ms by a
/// read at revision 5 and releases at 1500 ms.
History renew_across_a_grant() {
    HistoryBuilder h;
    h.acquire_invoke(0, 1, 1000);
    h.acquire_done(5, 1, OpType::Ok, 2);
    h.history().back().value = {{"key", "/l/a"}, {"create_revision", 2}, {"grant_revision", 2}};
    h.acquire_invoke(100, 2, 1000);
    h.acquire_done(1200, 2, OpType::Ok, 3);
    h.history().back().value = {{"key", "/l/b"}, {"create_revision", 3}, {"grant_revision", 5}};
    h.renew(1400, 1410, 1, OpType::Ok, 1000);
    h.release(1500, 1510, 2, OpType::Fail);
    h.history().back().error = "not-owner";
    h.release(1600, 1610, 1);
    h.history().back().value = {{"deleted", 1}, {"revision", 7}};
    return h.history();
}

TEST(ServerWitness, ARenewIsNoLossToAGrantTheServersNeverGave) {
    // Without the record, worker 1's renew looks like the revival of a lock lost to worker 2.
    const History history = renew_across_a_grant();
    const CheckReport alone = run_checkers(history);
    ASSERT_NE(renew_after_loss(alone), nullptr);
    ASSERT_EQ(renew_after_loss(alone)->violations.size(), 1u);
    // p2-2's key had expired at revision 4, before the read at 5 that granted it: it was never granted.
    const ServerRecord record = record_with(del(4, "/l/b", "p2-2") + del(7, "/l/a", "p1-1"));
    const CheckReport report = run_checkers(history, {}, &record);
    EXPECT_TRUE(renew_after_loss(report)->violations.empty());
    EXPECT_EQ(renew_after_loss(report)->valid, Validity::Valid);
    EXPECT_EQ(renew_after_loss(report)->stats["renews_after_loss"], 0);
    EXPECT_EQ(report.witness["renews_after_loss_withdrawn"], 1);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kGrantWithoutOwnKey);
    // Near miss: p2-2's key alive at its grant: the finding stands.
    const ServerRecord alive = record_with(del(6, "/l/b", "p2-2") + del(7, "/l/a", "p1-1"));
    EXPECT_EQ(renew_after_loss(run_checkers(history, {}, &alive))->violations.size(), 1u);
}

TEST(ServerWitness, ARecordNotReadLeavesTheClassesAndSaysWhy) {
    const ServerRecord record =
        parse_server_record(R"({"server":"etcd","read":false,"why":"member 10.0.0.1 did not answer"})"
                            "\n");
    const CheckReport report = run_checkers(waiting_overlap(5), {}, &record);
    EXPECT_EQ(mutual_exclusion(report).violations[0].kind, kOverlapLeaseUncertain);
    EXPECT_EQ(report.witness["read"], false);
    EXPECT_EQ(report.witness["why"], "member 10.0.0.1 did not answer");
}

TEST(ServerRecordText, AFileThatDoesNotReadIsARecordNotRead) {
    const ServerRecord bad = parse_server_record("{\"server\":\"etcd\",\"read\":true}\n{\"rev\":\"x\"}\n");
    EXPECT_FALSE(bad.read);
    EXPECT_NE(bad.why.find("line 2"), std::string::npos) << bad.why;
    EXPECT_FALSE(parse_server_record("").read);
}

TEST(ServerRecordText, EventsComeInTheServersOrder) {
    // The delete at revision 4 comes last in the file, after the PUT at 5: the record sorts it in.
    const ServerRecord r = record_with(del(4, "/l/b", "p2-2"));
    ASSERT_EQ(r.events.size(), 4u);
    EXPECT_EQ(r.events[0].revision, 2);
    EXPECT_TRUE(r.events[2].deleted);
    EXPECT_EQ(r.events[2].revision, 4);
    EXPECT_EQ(r.events[2].value, "p2-2");
    EXPECT_EQ(r.events[3].revision, 5);
}

TEST(RevisionClock, PlacesARevisionBetweenTheOpsThatSawTheNumbersAroundIt) {
    // Ops served at revision 3 in [10, 20] and 5 in [30, 40], 7 in [35, 60]: revision 5
    // happened after 10 (an op saw 3 < 5) and before 40 (one saw 5 by then).
    const RevisionClock clock({{3, 10, 20}, {5, 30, 40}, {7, 35, 60}});
    EXPECT_EQ(clock.place(5), std::pair(std::optional<std::int64_t>(10), std::optional<std::int64_t>(40)));
    EXPECT_EQ(clock.place(6), std::pair(std::optional<std::int64_t>(30), std::optional<std::int64_t>(60)));
    EXPECT_EQ(clock.place(1).first, std::nullopt);
    EXPECT_EQ(clock.place(8).second, std::nullopt);
}

}  // namespace
