// The kill-holder fault against a fake worker pool, and the live state's
// account of acquires in flight that it relies on.
#include <gtest/gtest.h>

#include <thread>

#include "workers/live_state.hpp"
#include "nemesis/kill_holder.hpp"

using namespace lockcheck;

namespace {

class FakeWorkers : public WorkerControl {
public:
    std::vector<int> holding;
    std::vector<int> in_flight;
    std::vector<int> killed;

    std::vector<int> holders() const override { return holding; }
    bool pause_worker(int) override { return true; }
    void resume_worker(int) override {}
    std::vector<int> acquiring_for(std::chrono::milliseconds) const override { return in_flight; }
    bool kill_worker(int process) override {
        killed.push_back(process);
        return true;
    }
};

FaultEvent event(std::uint64_t pick) {
    FaultEvent e;
    e.kind = "kill-holder";
    e.target_delay_ms = 20;
    e.pick = pick;
    return e;
}

}  // namespace

TEST(KillHolder, KillsAWorkerHalfWayThroughItsAcquire) {
    FakeWorkers workers;
    workers.in_flight = {4};
    KillHolder fault(workers);
    const auto targets = fault.start(event(0), std::stop_token{});
    ASSERT_TRUE(targets.has_value());
    EXPECT_EQ(*targets, std::vector<std::string>{"worker 4"});
    EXPECT_EQ(workers.killed, std::vector<int>{4});
    fault.heal();  // nothing to undo
    EXPECT_EQ(workers.killed, std::vector<int>{4});
}

TEST(KillHolder, PicksAmongHoldersAndAcquirersWithoutDuplicates) {
    FakeWorkers workers;
    workers.holding = {2, 7};
    workers.in_flight = {7, 9};
    KillHolder fault(workers);
    fault.start(event(2), std::stop_token{});  // candidates {2, 7, 9}: pick 2 -> 9
    EXPECT_EQ(workers.killed, std::vector<int>{9});
}

TEST(KillHolder, AcquiringFirstPrefersAnAcquireInFlightOverAHolder) {
    FakeWorkers workers;
    workers.holding = {2};
    workers.in_flight = {9};
    KillHolder fault(workers, KillHolderTarget{std::chrono::milliseconds(200)});
    fault.start(event(0), std::stop_token{});  // a holder and an acquirer: the acquirer, whatever the pick
    EXPECT_EQ(workers.killed, std::vector<int>{9});
}

TEST(KillHolder, AcquiringFirstTakesAHolderOnceItsWaitIsOver) {
    FakeWorkers workers;
    workers.holding = {2};
    KillHolder fault(workers, KillHolderTarget{std::chrono::milliseconds(30)});
    const auto began = std::chrono::steady_clock::now();
    const auto targets = fault.start(event(0), std::stop_token{});
    ASSERT_TRUE(targets.has_value());
    EXPECT_EQ(*targets, std::vector<std::string>{"worker 2"});
    EXPECT_GE(std::chrono::steady_clock::now() - began, std::chrono::milliseconds(30));  // it waited for an acquirer
}

TEST(KillHolder, NoTargetWhenStopped) {
    FakeWorkers workers;
    KillHolder fault(workers);
    std::stop_source stop;
    stop.request_stop();
    EXPECT_FALSE(fault.start(event(0), stop.get_token()).has_value());
    EXPECT_TRUE(workers.killed.empty());
}

TEST(LiveState, AcquiresInFlightCountOnlyOnceOldEnough) {
    LiveState live;
    live.acquiring(3, "lock");
    EXPECT_TRUE(live.acquiring_for(std::chrono::seconds(600)).empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(live.acquiring_for(std::chrono::milliseconds(10)), std::vector<int>{3});
    live.acquire_done(3);
    EXPECT_TRUE(live.acquiring_for(std::chrono::milliseconds(0)).empty());
    live.acquiring(5, "lock");
    live.forget(5);  // replaced: nothing in flight any more
    EXPECT_TRUE(live.acquiring_for(std::chrono::milliseconds(0)).empty());
}

TEST(LiveState, RenewsInFlightUntilAnsweredOrForgotten) {
    LiveState live;
    EXPECT_EQ(live.renews_sent(), 0);
    live.renewing(2);
    live.renewing(4);
    EXPECT_EQ(live.renewing(), (std::vector<int>{2, 4}));
    live.renew_done(2);
    EXPECT_EQ(live.renewing(), std::vector<int>{4});
    live.forget(4);  // replaced while its renew was in flight
    EXPECT_TRUE(live.renewing().empty());
    EXPECT_EQ(live.renews_sent(), 2) << "answered or not, both were sent";
}
