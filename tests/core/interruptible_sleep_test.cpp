// Waits end at once when a stop is requested: Ctrl-C must never wait out a
// hold, a think time, a fault or a settle wait.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/interruptible_sleep.hpp"

using namespace lockcheck;
using Clock = std::chrono::steady_clock;

namespace {

/// Seconds since `since`.
double seconds_since(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

}  // namespace

TEST(InterruptibleSleep, AStopEndsALongSleepAtOnce) {
    std::stop_source stop;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        stop.request_stop();
    });
    const auto start = Clock::now();
    EXPECT_FALSE(interruptible_sleep_for(stop.get_token(), std::chrono::seconds(30))) << "stopped, not slept out";
    EXPECT_LT(seconds_since(start), 2.0);
    stopper.join();
}

TEST(InterruptibleSleep, AnEarlierStopMeansNoSleepAtAll) {
    std::stop_source stop;
    stop.request_stop();
    const auto start = Clock::now();
    EXPECT_FALSE(interruptible_sleep_until(stop.get_token(), Clock::now() + std::chrono::hours(1)));
    EXPECT_LT(seconds_since(start), 0.5);
}

TEST(InterruptibleSleep, WithoutAStopItSleepsTheWholeTime) {
    const auto start = Clock::now();
    EXPECT_TRUE(interruptible_sleep_for(std::stop_token{}, std::chrono::milliseconds(120)));
    EXPECT_GE(seconds_since(start), 0.119);
}

TEST(InterruptibleSleep, ATimeAlreadyPastIsNoSleepAndStillTellsAStop) {
    // A hold or think time of 0: no wait at all, and the answer is still whether a stop was requested.
    EXPECT_TRUE(interruptible_sleep_until(std::stop_token{}, Clock::now() - std::chrono::seconds(1)));
    EXPECT_TRUE(interruptible_sleep_for(std::stop_token{}, std::chrono::milliseconds(0)));
    std::stop_source stop;
    stop.request_stop();
    EXPECT_FALSE(interruptible_sleep_until(stop.get_token(), Clock::now() - std::chrono::seconds(1)));
    EXPECT_FALSE(interruptible_sleep_for(stop.get_token(), std::chrono::milliseconds(0)));
}

TEST(PollUntil, ReturnsWhenDoneTimedOutOrStopped) {
    int calls = 0;
    EXPECT_TRUE(poll_until([&] { return ++calls == 3; }, std::chrono::seconds(5), std::chrono::milliseconds(1),
                           std::stop_token{}));
    EXPECT_EQ(calls, 3);

    auto start = Clock::now();
    EXPECT_FALSE(poll_until([] { return false; }, std::chrono::milliseconds(100), std::chrono::milliseconds(10),
                            std::stop_token{}));
    EXPECT_GE(seconds_since(start), 0.099);
    EXPECT_LT(seconds_since(start), 2.0);

    std::stop_source stop;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        stop.request_stop();
    });
    start = Clock::now();
    EXPECT_FALSE(poll_until([] { return false; }, std::chrono::hours(1), std::chrono::seconds(20), stop.get_token()))
        << "a stop ends even a long period between two polls";
    EXPECT_LT(seconds_since(start), 2.0);
    stopper.join();
}
