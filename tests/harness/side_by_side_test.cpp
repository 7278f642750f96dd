// `suite --jobs N`: every task runs once, at most N at once, a task marked
// alone with nothing beside it, and none starts after a stop.
#include "commands/suite/side_by_side.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <stop_token>
#include <thread>

namespace lockcheck {
namespace {

/// What the tasks did, in the order they did it: +i when task i started, -i-1 when it ended.
class Journal {
public:
    void started(std::size_t i) { note(static_cast<int>(i), +1); }
    void ended(std::size_t i) { note(-static_cast<int>(i) - 1, -1); }
    /// A task that starts and ends at once.
    std::function<void(std::size_t)> instant_task() {
        return [this](std::size_t i) {
            started(i);
            ended(i);
        };
    }
    /// Waits until task i has started, at most `limit` (so that a wrong
    /// scheduler fails rather than hangs); false when it has not.
    bool wait_started(std::size_t i, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, limit, [&] { return started_.count(i) > 0; });
    }
    std::vector<int> events() {
        std::lock_guard lock(mutex_);
        return events_;
    }
    int most_at_once() {
        std::lock_guard lock(mutex_);
        return most_;
    }

private:
    void note(int event, int delta) {
        std::lock_guard lock(mutex_);
        events_.push_back(event);
        if (delta > 0) started_.insert(static_cast<std::size_t>(event));
        running_ += delta;
        most_ = std::max(most_, running_);
        changed_.notify_all();
    }
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<int> events_;
    std::multiset<std::size_t> started_;
    int running_ = 0;
    int most_ = 0;
};

/// The tasks that started, sorted (tasks are taken in order, but two threads
/// may note their starts in either order).
std::vector<int> starts(const std::vector<int>& events) {
    std::vector<int> out;
    for (const int e : events)
        if (e >= 0) out.push_back(e);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(SideBySide, RunsEveryTaskOnceAndAtMostJobsAtOnce) {
    Journal journal;
    run_side_by_side(std::vector<bool>(9, false), 3, journal.instant_task(), {});
    EXPECT_EQ(starts(journal.events()), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(journal.events().size(), 18u);
    EXPECT_LE(journal.most_at_once(), 3);
}

TEST(SideBySide, TwoJobsRunTwoTasksAtOnce) {
    Journal journal;
    bool second_seen_while_first_ran = false;
    run_side_by_side(std::vector<bool>(2, false), 2,
                     [&](std::size_t i) {
                         journal.started(i);
                         if (i == 0) second_seen_while_first_ran = journal.wait_started(1);
                         journal.ended(i);
                     },
                     {});
    EXPECT_TRUE(second_seen_while_first_ran) << "task 1 did not start while task 0 was running";
    EXPECT_EQ(journal.most_at_once(), 2);
}

TEST(SideBySide, OneJobRunsOneAfterTheOther) {
    Journal journal;
    run_side_by_side(std::vector<bool>(4, false), 1, journal.instant_task(), {});
    EXPECT_EQ(journal.events(), (std::vector<int>{0, -1, 1, -2, 2, -3, 3, -4}));
}

TEST(SideBySide, AnAloneTaskRunsWithNothingBesideIt) {
    Journal journal;
    const std::vector<bool> alone{false, false, true, false, false, true, true, false};
    // Each task waits for the next to start: a task beside which the next may
    // run sees it start; one before an alone task gives it 300 ms to start
    // too soon (it never does when the scheduler keeps it alone).
    run_side_by_side(alone, 4,
                     [&](std::size_t i) {
                         journal.started(i);
                         if (i + 1 < alone.size() && !alone[i])
                             journal.wait_started(i + 1, alone[i + 1] ? std::chrono::milliseconds(300)
                                                                      : std::chrono::milliseconds(10'000));
                         journal.ended(i);
                     },
                     {});
    const auto events = journal.events();
    EXPECT_EQ(starts(events), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    for (std::size_t i = 0; i < alone.size(); ++i) {
        if (!alone[i]) continue;
        const auto at = std::find(events.begin(), events.end(), static_cast<int>(i)) - events.begin();
        ASSERT_LT(at + 1, static_cast<long>(events.size()));
        EXPECT_EQ(events[static_cast<std::size_t>(at + 1)], -static_cast<int>(i) - 1)
            << "something happened while alone task " << i << " ran";
        int running = 0;  // before it started, every task before it had ended
        for (long e = 0; e < at; ++e) running += events[static_cast<std::size_t>(e)] >= 0 ? 1 : -1;
        EXPECT_EQ(running, 0) << "alone task " << i << " started beside another";
    }
}

TEST(SideBySide, NoTaskStartsAfterAStop) {
    std::stop_source stop;
    Journal journal;
    run_side_by_side(
        std::vector<bool>(6, false), 1,
        [&](std::size_t i) {
            journal.started(i);
            if (i == 2) stop.request_stop();
            journal.ended(i);
        },
        stop.get_token());
    EXPECT_EQ(starts(journal.events()), (std::vector<int>{0, 1, 2}));
}

TEST(SideBySide, OneJobRunsInTheCallersThread) {
    const auto caller = std::this_thread::get_id();
    int elsewhere = 0;
    run_side_by_side(std::vector<bool>(3, false), 1,
                     [&](std::size_t) { elsewhere += std::this_thread::get_id() == caller ? 0 : 1; }, {});
    EXPECT_EQ(elsewhere, 0);
}

TEST(SideBySide, AThrowingTaskStopsTheRestAndItsExceptionComesBack) {
    Journal journal;
    EXPECT_THROW(run_side_by_side(std::vector<bool>(6, true), 2,
                                  [&](std::size_t i) {
                                      journal.started(i);
                                      journal.ended(i);
                                      if (i == 1) throw std::runtime_error("cannot start");
                                  },
                                  {}),
                 std::runtime_error);
    EXPECT_EQ(starts(journal.events()), (std::vector<int>{0, 1})) << "alone tasks: one at a time, none after the throw";
}

TEST(SideBySide, NothingToRunReturnsAtOnce) {
    int calls = 0;
    run_side_by_side({}, 4, [&](std::size_t) { ++calls; }, {});
    EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace lockcheck
