// Dangers counted from the record (checkers/danger_counts.hpp), on
// constructed histories: each kind counted where its moment came about, as
// often as it did, and zero where it never did, whatever the client answered.
#include <gtest/gtest.h>

#include "checkers/danger_counts.hpp"
#include "checkers/exercise.hpp"
#include "checkers/renew_after_loss.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

std::size_t count(HistoryBuilder& b, std::string_view kind) {
    const auto partner = pair_ops(b.history());
    const DangerKind* k = find_danger_kind(kind);
    EXPECT_NE(k, nullptr) << kind;
    return k ? k->count(DangerRecord(b.history(), partner)) : 0;
}

/// A fault's strike at `t` with `target` ("n1", "worker 1"), fault id `id`.
void strike(HistoryBuilder& b, double t, const std::string& fault, const std::string& target, int id) {
    b.add(t, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", fault}, {"id", id}};
    b.add(t, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", fault}, {"id", id}, {"targets", {target}}};
}

/// Worker 1 holds from `t` (1000 ms leases), is paused at t + 100 ms until
/// t + `stopped_ms`, then writes and releases.
void paused_holder(HistoryBuilder& b, double t, double stopped_ms, int id, const std::string& fault = "pause-holder") {
    b.acquire_invoke(t, 1);
    b.acquire_done(t + 1, 1, OpType::Ok);
    b.pause(t + 100, 1, id, fault);
    b.stop_fault(t + stopped_ms, id);
    b.write(t + stopped_ms + 10, t + stopped_ms + 11, 1, 1);
    b.release(t + stopped_ms + 20, t + stopped_ms + 21, 1);
}

}  // namespace

TEST(DangerCounts, AHolderStoppedPastItsLeaseThatActedIsCountedOncePerStop) {
    HistoryBuilder b;
    paused_holder(b, 0, 1500, 1);
    paused_holder(b, 3000, 2000, 2);
    EXPECT_EQ(count(b, "holders_stopped_past_lease_acted"), 2u);
}

TEST(DangerCounts, AHolderStoppedWithinItsLeaseIsNoDanger) {
    HistoryBuilder b;
    paused_holder(b, 0, 600, 1);  // resumed at 600 ms of a 1000 ms lease
    b.session(2, 2000, 2001, 2100, 2101);
    EXPECT_EQ(count(b, "holders_stopped_past_lease_acted"), 0u);
}

TEST(DangerCounts, AStoppedHolderActsOnAFreeKeyOnlyWhenAnotherOwnerTookAndReleasedIt) {
    HistoryBuilder freed;
    freed.acquire_invoke(0, 1);
    freed.acquire_done(1, 1, OpType::Ok);
    freed.pause(100, 1, 1);
    freed.session(2, 1100, 1101, 1200, 1201);
    freed.stop_fault(1500, 1);
    freed.release(1600, 1601, 1);
    EXPECT_EQ(count(freed, "holders_stopped_past_lease_acted_on_free_key"), 1u);

    HistoryBuilder still_held;  // worker 2 holds the key when worker 1 acts: not free
    still_held.acquire_invoke(0, 1);
    still_held.acquire_done(1, 1, OpType::Ok);
    still_held.pause(100, 1, 1);
    still_held.acquire_invoke(1100, 2);
    still_held.acquire_done(1101, 2, OpType::Ok);
    still_held.stop_fault(1500, 1);
    still_held.release(1600, 1601, 1);
    still_held.release(1700, 1701, 2);
    EXPECT_EQ(count(still_held, "holders_stopped_past_lease_acted_on_free_key"), 0u);
    EXPECT_EQ(count(still_held, "holders_stopped_past_lease_acted"), 1u) << "the stop past the lease came about";
}

TEST(DangerCounts, RenewsAcrossAGrantAreTheRenewAfterLossStat) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(5, 1, OpType::Ok);
    b.renew_invoke(900, 1);
    b.acquire_invoke(1050, 2);
    b.acquire_done(1051, 2, OpType::Ok);
    b.release(1071, 1072, 2);
    b.renew_done(2300, 1, OpType::Fail);
    b.release(2400, 2401, 1);
    EXPECT_EQ(count(b, "renews_across_grant"), 1u);
    EXPECT_EQ(check_renew_after_loss(b.history(), pair_ops(b.history())).stats["renews_across_grant"], 1);

    HistoryBuilder none;  // renewed within its hold; the next owner came after the release
    none.acquire_invoke(0, 1);
    none.acquire_done(1, 1, OpType::Ok);
    none.renew(200, 201, 1, OpType::Ok);
    none.release(500, 501, 1);
    none.session(2, 600, 601, 700, 701);
    EXPECT_EQ(count(none, "renews_across_grant"), 0u);
}

TEST(DangerCounts, AGrantHeldBackPastItsLeaseOrWithNoValidityLeftIsLateWhateverTheClientAnswered) {
    HistoryBuilder b;
    b.slow_reply(0, 1, 1500);
    b.acquire_invoke(100, 1);
    b.acquire_done(1700, 1, OpType::Fail);  // a correct client refuses the late grant
    b.history().back().error = "validity expired while acquiring";
    b.stop_fault(1800);
    b.acquire_invoke(2000, 1);
    b.acquire_done(2010, 1, OpType::Ok);
    b.history().back().valid_ms = -5;
    b.release(2020, 2021, 1);
    EXPECT_EQ(count(b, "grants_delivered_late"), 2u);
}

TEST(DangerCounts, ARefusalOrAReplyHeldBackLessThanTheLeaseIsNoLateGrant) {
    HistoryBuilder b;
    b.slow_reply(0, 1, 500);
    b.acquire_invoke(100, 1);
    b.acquire_done(700, 1, OpType::Ok);
    b.history().back().valid_ms = 400;
    b.release(710, 1300, 1);
    b.stop_fault(1400);
    b.slow_reply(1500, 1, 1500, 2);
    b.acquire_invoke(1600, 1);
    b.acquire_done(3200, 1, OpType::Fail);
    b.history().back().error = std::string(err::kHeld);
    EXPECT_EQ(count(b, "grants_delivered_late"), 0u);
}

TEST(DangerCounts, AnAcquireOfAFreeKeyWhoseRepliesWereHeldBackPastItsLeaseIsLateWhateverItsAnswer) {
    // Replies to worker 1 held back 1500 ms (1000 ms leases): the grant of
    // its first request reached it past its lease. A correct client refuses
    // it and retries; its answer, after the heal, is a fresh grant (ok) or a
    // timeout (info): the danger came about either way.
    HistoryBuilder b;
    b.slow_reply(0, 1, 1500);
    b.acquire_invoke(100, 1);
    b.stop_fault(1200);
    b.acquire_done(1900, 1, OpType::Ok);
    b.history().back().valid_ms = 980;
    b.release(1910, 1911, 1);
    b.slow_reply(2000, 1, 1500, 2);
    b.acquire_invoke(2100, 1);
    b.acquire_done(9000, 1, OpType::Info);
    b.stop_fault(9100, 2);
    EXPECT_EQ(count(b, "grants_delivered_late"), 2u);
}

TEST(DangerCounts, AHeldBackAcquireOfAHeldKeyOrWithinTheLeaseOrOutsideTheWindowIsNoLateGrant) {
    HistoryBuilder held;  // worker 2 holds the key when worker 1 asks: the server refuses it
    held.session(2, 0, 1, 900, 901);
    held.slow_reply(10, 1, 1500);
    held.acquire_invoke(100, 1);
    held.stop_fault(1200);
    held.acquire_done(1900, 1, OpType::Ok);
    held.release(1910, 1911, 1);
    EXPECT_EQ(count(held, "grants_delivered_late"), 0u);

    HistoryBuilder shorter;  // held back 1000 ms: the grant arrives within its 1000 ms lease (+1 ms)
    shorter.slow_reply(0, 1, 1000);
    shorter.acquire_invoke(100, 1);
    shorter.stop_fault(1200);
    shorter.acquire_done(1900, 1, OpType::Info);
    EXPECT_EQ(count(shorter, "grants_delivered_late"), 0u);

    HistoryBuilder outside;  // sent before the window opened, and after it healed
    outside.acquire_invoke(0, 1);
    outside.slow_reply(10, 1, 1500);
    outside.stop_fault(500);
    outside.acquire_done(600, 1, OpType::Info);
    outside.acquire_invoke(700, 2);
    outside.acquire_done(800, 2, OpType::Info);
    EXPECT_EQ(count(outside, "grants_delivered_late"), 0u);

    HistoryBuilder refused;  // every server said "held": nothing was granted
    refused.slow_reply(0, 1, 1500);
    refused.acquire_invoke(100, 1);
    refused.acquire_done(1700, 1, OpType::Fail);
    refused.history().back().error = std::string(err::kHeld);
    EXPECT_EQ(count(refused, "grants_delivered_late"), 0u);
}

TEST(DangerCounts, AWaiterStoppedPastItsLeaseWithItsAcquireInFlightIsCounted) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.pause(10, 1, 1, "pause-client");
    b.stop_fault(1200, 1);
    b.acquire_done(1201, 1, OpType::Ok);
    b.release(1210, 1211, 1);
    b.acquire_invoke(2000, 1);
    b.pause(2010, 1, 2, "pause-client");
    b.stop_fault(3500, 2);
    b.acquire_done(3501, 1, OpType::Fail);
    b.history().back().error = "validity expired while acquiring";
    b.acquire_invoke(4000, 1);
    b.pause(4010, 1, 3, "pause-client");
    b.stop_fault(5500, 3);
    b.acquire_done(5501, 1, OpType::Info);  // the session expired while it waited: unknown, and not claimed
    EXPECT_EQ(count(b, "waiters_stopped_past_lease"), 3u);
}

TEST(DangerCounts, AWaiterStoppedWithinItsLeaseOrAskedAfterTheStopIsNoDanger) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.pause(10, 1, 1, "pause-client");
    b.stop_fault(500, 1);  // resumed within the lease
    b.acquire_done(501, 1, OpType::Ok);
    b.release(510, 511, 1);
    b.pause(1000, 1, 2, "pause-client");
    b.acquire_invoke(1010, 1);  // sent while stopped: read after the resume
    b.stop_fault(2500, 2);
    b.acquire_done(2501, 1, OpType::Ok);
    b.release(2510, 2511, 1);
    EXPECT_EQ(count(b, "waiters_stopped_past_lease"), 0u);
}

TEST(DangerCounts, AHolderCutOffPastItsLeaseThatActedIsCounted) {
    HistoryBuilder b;
    paused_holder(b, 0, 1500, 1, "client-partition");
    paused_holder(b, 3000, 1800, 2, "client-partition");
    EXPECT_EQ(count(b, "holders_cut_off_past_lease_acted"), 2u);
    EXPECT_EQ(count(b, "holders_stopped_past_lease_acted"), 0u) << "a cut-off is no stop";
}

TEST(DangerCounts, AHolderCutOffWhoseReleaseHungPastItsLeaseIsCounted) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(1, 1, OpType::Ok);
    strike(b, 100, "client-partition", "worker 1", 1);
    b.release(300, 1300, 1, OpType::Info);  // timed out after the lease ended (1002 ms)
    b.stop_fault(1500, 1);
    EXPECT_EQ(count(b, "holders_cut_off_past_lease_acted"), 1u);
}

TEST(DangerCounts, AHolderCutOffThatActedOnlyWithinItsLeaseIsNoDanger) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(1, 1, OpType::Ok);
    strike(b, 100, "client-partition", "worker 1", 1);
    b.write(200, 201, 1, 1);
    b.release(300, 301, 1);
    b.stop_fault(1500, 1);
    EXPECT_EQ(count(b, "holders_cut_off_past_lease_acted"), 0u);
}

TEST(DangerCounts, ServerFaultsCountOnlyWhileALeaseWasLive) {
    HistoryBuilder b;
    b.session(1, 0, 1, 500, 501);
    strike(b, 200, "kill-restart", "n1", 1);
    b.stop_fault(300, 1);
    strike(b, 600, "kill-restart", "n2", 2);  // no lease live
    b.stop_fault(700, 2);
    b.session(2, 800, 801, 1200, 1201);
    strike(b, 1000, "pause-node", "n1", 3);
    b.stop_fault(1100, 3);
    strike(b, 1050, "pause-client", "worker 2", 4);  // a client's fault, not the servers'
    EXPECT_EQ(count(b, "server_faults_during_lease"), 2u);
    EXPECT_EQ(count(b, "client_faults_during_own_lease"), 1u);

    HistoryBuilder idle;
    idle.session(1, 0, 1, 100, 101);
    strike(idle, 1500, "kill-restart", "n1", 1);  // 1.4 s after the release
    strike(idle, 1600, "client-clock-skew", "worker 2", 2);
    EXPECT_EQ(count(idle, "server_faults_during_lease"), 0u);
    EXPECT_EQ(count(idle, "client_faults_during_own_lease"), 0u);
}

TEST(DangerCounts, ALockWithoutALeaseIsLiveWhileHeld) {
    // GET_LOCK and a table record without cleanup: the acquire asks for no ttl, and the lock is held until
    // released, however long; a server fault while it is held can still lose it.
    HistoryBuilder b;
    b.acquire_invoke(0, 1, 0);
    b.history().back().ttl_ms.reset();
    b.acquire_done(1, 1, OpType::Ok);
    strike(b, 5000, "power-loss", "n1", 1);  // 5 s into the hold: past any ttl, still held
    b.stop_fault(5100, 1);
    b.release(6000, 6001, 1);
    strike(b, 7000, "power-loss", "n1", 2);  // released: nothing held
    EXPECT_EQ(count(b, "server_faults_during_lease"), 1u);
}

TEST(DangerCounts, AServerFaultAimedAfterAGrantIsStillTheServersFault) {
    // power_loss_after_grant_ms records the moment beside the nodes it struck:
    // "n1", "10 ms after the grant to worker 1". Only "worker N" names a worker.
    HistoryBuilder b;
    b.session(1, 0, 1, 500, 501);
    b.add(11, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", "power-loss"}, {"id", 1}};
    b.add(60, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    b.history().back().value = {
        {"fault", "power-loss"}, {"id", 1}, {"targets", {"n1", "10 ms after the grant to worker 1"}}};
    EXPECT_EQ(count(b, "server_faults_during_lease"), 1u);

    // A worker fault aimed the same way stays the client's, never the servers'.
    HistoryBuilder paused;
    paused.session(1, 0, 1, 500, 501);
    paused.add(11, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    paused.history().back().value = {{"fault", "pause-holder"}, {"id", 1}};
    paused.add(60, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    paused.history().back().value = {
        {"fault", "pause-holder"}, {"id", 1}, {"targets", {"worker 1", "10 ms after the grant to worker 1"}}};
    EXPECT_EQ(count(paused, "server_faults_during_lease"), 0u);
}

TEST(DangerCounts, AReleaseAfterTheLeaseInFlightAcrossAnotherOwnersGrantIsCounted) {
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_done(1, 1, OpType::Ok);
    b.acquire_invoke(1400, 2);  // queued at a stalled server with the release
    b.release_invoke(1500, 1);
    b.acquire_done(1600, 2, OpType::Ok);
    b.release_done(1700, 1, OpType::Fail);
    b.history().back().error = std::string(err::kNotOwner);
    b.release(1800, 1801, 2);
    EXPECT_EQ(count(b, "releases_across_grant_after_lease"), 1u);

    HistoryBuilder refused;  // the other owner's grant came too late and its client gave it back
    refused.acquire_invoke(0, 1);
    refused.acquire_done(1, 1, OpType::Ok);
    refused.acquire_invoke(1048, 2);
    refused.release_invoke(1222, 1);
    refused.release_done(3546, 1, OpType::Fail);
    refused.history().back().error = std::string(err::kNotOwner);
    refused.acquire_done(3547, 2, OpType::Fail);
    refused.history().back().error = "validity expired while acquiring";
    EXPECT_EQ(count(refused, "releases_across_grant_after_lease"), 1u);

    HistoryBuilder within;  // released within the lease: the next grant follows it
    within.session(1, 0, 1, 500, 501);
    within.acquire_invoke(450, 2);
    within.acquire_done(502, 2, OpType::Ok);
    within.release(600, 601, 2);
    EXPECT_EQ(count(within, "releases_across_grant_after_lease"), 0u);
}

TEST(DangerCounts, AGrantAnsweredHalfALeaseAfterItWasAskedForIsCounted) {
    HistoryBuilder b;
    b.session(1, 0, 600, 700, 701);
    b.session(1, 1000, 1100, 1200, 1201);
    b.acquire_invoke(2000, 1);
    b.acquire_done(2500, 1, OpType::Fail);
    b.history().back().error = "validity expired while acquiring";
    EXPECT_EQ(count(b, "grants_after_half_lease"), 2u);
}

TEST(DangerCounts, ResultsCarryEveryCountOfALockHistory) {
    HistoryBuilder b;
    paused_holder(b, 0, 1500, 1);
    const Exercise e = judge_exercise(b.history(), {});
    ASSERT_TRUE(e.figures.contains("dangers"));
    EXPECT_EQ(e.figures["dangers"].size(), danger_kinds().size());
    EXPECT_EQ(e.figures["dangers"]["holders_stopped_past_lease_acted"], 1);
    EXPECT_EQ(e.figures["dangers"]["server_faults_during_lease"], 0);
}

TEST(DangerCounts, AnAimedPauseThatWaitedForTheWaiterCountsFromTheMomentItStruck) {
    // The aimed fault was invoked at 0, waited for an acquire in flight (sent at
    // 50), and says it was about to act at 60 (struck_ns): the acquire was in
    // flight when it struck.
    HistoryBuilder b;
    b.add(0, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    b.history().back().value = {{"fault", "pause-client"}, {"id", 1}};
    b.acquire_invoke(50, 1);
    b.add(61, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    b.history().back().value = {
        {"fault", "pause-client"}, {"id", 1}, {"targets", {"worker 1"}}, {"struck_ns", 60'000'000}};
    b.stop_fault(1600, 1);
    b.acquire_done(1601, 1, OpType::Ok);
    EXPECT_EQ(count(b, "waiters_stopped_past_lease"), 1u);
    // Without struck_ns the record cannot say the acquire was sent before the stop.
    b.history()[2].value.erase("struck_ns");
    EXPECT_EQ(count(b, "waiters_stopped_past_lease"), 0u);
    // A struck_ns before the acquire was sent: it may have been stopped first.
    b.history()[2].value["struck_ns"] = 40'000'000;
    EXPECT_EQ(count(b, "waiters_stopped_past_lease"), 0u);
}

TEST(DangerCounts, AClientKilledHoldingOrAcquiringCountsOnceItsKeyIsAskedForAfterItsLease) {
    HistoryBuilder b;
    // Worker 1 is killed holding (granted at 1, lease 1000 ms): worker 2 asks
    // at 500 (within the lease) and again at 1100 (after it could have run out).
    b.acquire_invoke(0, 1);
    b.acquire_done(1, 1, OpType::Ok);
    b.kill_holder(100, 1);
    b.acquire_invoke(500, 2);
    b.acquire_done(501, 2, OpType::Fail);
    EXPECT_EQ(count(b, "clients_killed_holding_or_acquiring"), 0u) << "nobody asked after the lease";
    b.acquire_invoke(1100, 2);
    b.acquire_done(1101, 2, OpType::Fail);
    EXPECT_EQ(count(b, "clients_killed_holding_or_acquiring"), 1u);
    // Worker 3 is killed half-way through its acquire (sent at 2000, killed at
    // 2300, answered info): its lease could run until 3301; worker 2 asks at 3400.
    b.acquire_invoke(2000, 3);
    b.kill_holder(2300, 3);
    b.acquire_done(2301, 3, OpType::Info);
    b.acquire_invoke(3400, 2);
    b.acquire_done(3401, 2, OpType::Fail);
    EXPECT_EQ(count(b, "clients_killed_holding_or_acquiring"), 2u);
    // The worker's driver may record its acquire's end before the kill's
    // completion: struck_ns (just before the kill) says it was in flight.
    b.acquire_invoke(3410, 5);
    b.acquire_done(3412, 5, OpType::Info);
    b.kill_holder(3413, 5);
    b.history().back().value["struck_ns"] = std::int64_t{3411} * 1'000'000;
    b.acquire_invoke(4500, 2);
    b.acquire_done(4501, 2, OpType::Fail);
    EXPECT_EQ(count(b, "clients_killed_holding_or_acquiring"), 3u);
    // A kill of a worker that neither held nor was acquiring (worker 2, between attempts) is no danger.
    b.kill_holder(4600, 2);
    b.acquire_invoke(6000, 4);
    b.acquire_done(6001, 4, OpType::Ok);
    EXPECT_EQ(count(b, "clients_killed_holding_or_acquiring"), 3u);
}
