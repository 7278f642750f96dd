// The nemesis running a schedule with faults whose start and heal take as
// long as the test says: what it records, and that a fault that overruns its
// planned end pushes the next one back so its quiet gap is kept.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "nemesis/nemesis.hpp"

using namespace lockcheck;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

/// A fault that takes `start_takes` to start and `heal_takes` to heal, and
/// notes when each start began and each heal ended.
class TimedFault : public Fault {
public:
    TimedFault(milliseconds start_takes, milliseconds heal_takes)
        : start_takes_(start_takes), heal_takes_(heal_takes) {}
    std::string kind() const override { return "timed"; }
    std::optional<std::vector<std::string>> start(const FaultEvent&, const std::stop_token&) override {
        {
            std::lock_guard lock(mutex_);
            starts.push_back(Clock::now());
            active_ = true;
        }
        std::this_thread::sleep_for(start_takes_);
        return std::vector<std::string>{"n1"};
    }
    void heal() noexcept override {
        {
            std::lock_guard lock(mutex_);
            if (!active_) return;
            active_ = false;
        }
        std::this_thread::sleep_for(heal_takes_);
        std::lock_guard lock(mutex_);
        heals_ended.push_back(Clock::now());
    }

    std::vector<Clock::time_point> starts;
    std::vector<Clock::time_point> heals_ended;

private:
    milliseconds start_takes_, heal_takes_;
    std::mutex mutex_;
    bool active_ = false;
};

FaultEvent event_at(int id, std::int64_t at_ms, std::int64_t duration_ms) {
    FaultEvent e;
    e.id = id;
    e.kind = "timed";
    e.at_ms = at_ms;
    e.duration_ms = duration_ms;
    return e;
}

struct Outcome {
    std::vector<Op> ops;
    std::vector<Clock::time_point> starts;       ///< when each fault's start began
    std::vector<Clock::time_point> heals_ended;  ///< when each fault's heal returned
};

/// Runs `schedule` on one TimedFault to its end.
Outcome run_schedule(const std::vector<FaultEvent>& schedule, milliseconds start_takes, milliseconds heal_takes) {
    Outcome outcome;
    auto owned = std::make_unique<TimedFault>(start_takes, heal_takes);
    TimedFault& fault = *owned;
    std::map<std::string, std::unique_ptr<Fault>> faults;
    faults.emplace("timed", std::move(owned));
    Nemesis nemesis(
        schedule, std::move(faults), [&](Op op) { outcome.ops.push_back(std::move(op)); }, Clock::now());
    nemesis.run(std::stop_token{});
    outcome.starts = fault.starts;
    outcome.heals_ended = fault.heals_ended;
    return outcome;
}

}  // namespace

TEST(NemesisRun, RecordsEachFaultAsStartAndStopPairs) {
    const auto outcome = run_schedule({event_at(1, 0, 20), event_at(2, 60, 20)}, milliseconds(0), milliseconds(0));
    ASSERT_EQ(outcome.ops.size(), 8u);  // start invoke/info and stop invoke/info, twice
    for (std::size_t i = 0; i < outcome.ops.size(); ++i) {
        const auto& op = outcome.ops[i];
        EXPECT_TRUE(op.is_nemesis());
        EXPECT_EQ(op.f, i % 4 < 2 ? "start-fault" : "stop-fault") << i;
        EXPECT_EQ(op.type, i % 2 == 0 ? OpType::Invoke : OpType::Info) << i;
        EXPECT_EQ(op.value["id"], i < 4 ? 1 : 2) << i;
    }
    EXPECT_EQ(outcome.ops[1].value["targets"], nlohmann::json::array({"n1"}));
}

/// Fault 1 planned from 0 to 50 ms, a quiet gap of 150 ms, fault 2 at 200 ms:
/// how long after fault 1's heal returned fault 2 started.
milliseconds gap_after_first_heal(milliseconds start_takes, milliseconds heal_takes) {
    const auto outcome = run_schedule({event_at(1, 0, 50), event_at(2, 200, 50)}, start_takes, heal_takes);
    EXPECT_EQ(outcome.starts.size(), 2u);
    EXPECT_EQ(outcome.heals_ended.size(), 2u);
    if (outcome.starts.size() < 2 || outcome.heals_ended.empty()) return milliseconds(-1);
    return std::chrono::duration_cast<milliseconds>(outcome.starts[1] - outcome.heals_ended[0]);
}

TEST(NemesisRun, AHealThatOverrunsPushesTheNextFaultBackByItsOverrun) {
    // Healing takes 400 ms, so fault 1 really ends at ≈ 450 ms: fault 2 must
    // still come ≈ 150 ms after that, not at once.
    const auto gap = gap_after_first_heal(milliseconds(0), milliseconds(400));
    EXPECT_GE(gap.count(), 140) << "the second fault came " << gap.count() << " ms after the first was healed";
}

TEST(NemesisRun, AStartThatOverrunsPushesTheNextFaultBackToo) {
    // Starting takes 300 ms (a restart waiting for its node), longer than the
    // fault's planned 50 ms: the next fault keeps its 150 ms gap after the heal.
    const auto gap = gap_after_first_heal(milliseconds(300), milliseconds(0));
    EXPECT_GE(gap.count(), 140) << "the second fault came " << gap.count() << " ms after the first was healed";
}

namespace {

/// Workers of which worker 3 holds a lock granted just now, whenever asked.
class FreshGrantWorkers : public WorkerControl {
public:
    std::vector<int> holders() const override { return {3}; }
    std::vector<int> granted_since(Clock::time_point) const override { return {3}; }
    bool pause_worker(int) override { return false; }
    void resume_worker(int) override {}
};

/// A fault that strikes its label.
class LabelFault : public Fault {
public:
    explicit LabelFault(std::string label) : label_(std::move(label)) {}
    std::string kind() const override { return "timed"; }
    std::optional<std::vector<std::string>> start(const FaultEvent&, const std::stop_token&) override {
        return std::vector<std::string>{label_};
    }
    void heal() noexcept override {}

private:
    std::string label_;
};

/// Runs `schedule` with `faults` and `workers`, and returns what it recorded.
std::vector<Op> run_with(const std::vector<FaultEvent>& schedule, std::map<std::string, std::unique_ptr<Fault>> faults,
                         const WorkerControl* workers) {
    std::vector<Op> ops;
    Nemesis nemesis(
        schedule, std::move(faults), [&](Op op) { ops.push_back(std::move(op)); }, Clock::now(), workers);
    nemesis.run(std::stop_token{});
    return ops;
}

}  // namespace

TEST(NemesisRun, AnEventWithAfterGrantStrikesAfterAFreshGrantAndSaysWhose) {
    auto event = event_at(1, 0, 0);
    event.after_grant_ms = 0;
    std::map<std::string, std::unique_ptr<Fault>> faults;
    faults.emplace("timed", std::make_unique<TimedFault>(milliseconds(0), milliseconds(0)));
    const FreshGrantWorkers workers;
    const auto ops = run_with({event}, std::move(faults), &workers);
    ASSERT_GE(ops.size(), 2u);
    EXPECT_EQ(ops[1].value["targets"], nlohmann::json::array({"n1", "0 ms after the grant to worker 3"}));
}

TEST(NemesisRun, AnEventWithAfterGrantAndNoWorkersStrikesNothing) {
    auto event = event_at(1, 0, 0);
    event.after_grant_ms = 0;
    std::map<std::string, std::unique_ptr<Fault>> faults;
    faults.emplace("timed", std::make_unique<TimedFault>(milliseconds(0), milliseconds(0)));
    const auto ops = run_with({event}, std::move(faults), nullptr);
    ASSERT_EQ(ops.size(), 2u) << "a start-fault invoke and info, no stop-fault: nothing started";
    ASSERT_TRUE(ops[1].error);
    EXPECT_EQ(*ops[1].error, "no fresh grant");
}

TEST(NemesisRun, AnEventWithItsOwnOptionsRunsTheFaultMadeForThem) {
    auto plain = event_at(1, 0, 0);
    auto own = event_at(2, 0, 0);
    own.options = {{"restart_delay_ms", 500}};
    std::map<std::string, std::unique_ptr<Fault>> faults;
    faults.emplace(fault_instance_key(plain), std::make_unique<LabelFault>("plain"));
    faults.emplace(fault_instance_key(own), std::make_unique<LabelFault>("own"));
    const auto ops = run_with({plain, own}, std::move(faults), nullptr);
    ASSERT_EQ(ops.size(), 8u);
    EXPECT_EQ(ops[1].value["targets"], nlohmann::json::array({"plain"}));
    EXPECT_EQ(ops[5].value["targets"], nlohmann::json::array({"own"}));
}

namespace {

/// A fault that says it struck `after` the run's start.
class StruckFault : public Fault {
public:
    StruckFault(Clock::time_point run_start, milliseconds after) : struck_(run_start + after) {}
    std::string kind() const override { return "timed"; }
    std::optional<std::vector<std::string>> start(const FaultEvent&, const std::stop_token&) override {
        return std::vector<std::string>{"worker 1"};
    }
    void heal() noexcept override {}
    std::optional<Clock::time_point> struck_at() const override { return struck_; }

private:
    Clock::time_point struck_;
};

}  // namespace

TEST(NemesisRun, TheCompletionCarriesWhenAnAimedFaultStruckOnTheHistorysClock) {
    const auto run_start = Clock::now();
    std::map<std::string, std::unique_ptr<Fault>> faults;
    faults.emplace("timed", std::make_unique<StruckFault>(run_start, milliseconds(30)));
    std::vector<Op> ops;
    Nemesis nemesis({event_at(1, 0, 5)}, std::move(faults), [&](Op op) { ops.push_back(std::move(op)); }, run_start);
    nemesis.run(std::stop_token{});
    ASSERT_GE(ops.size(), 2u);
    EXPECT_FALSE(ops[0].value.contains("struck_ns")) << "not on the invoke";
    EXPECT_EQ(ops[1].value["struck_ns"], 30'000'000);
    EXPECT_FALSE(run_schedule({event_at(1, 0, 5)}, milliseconds(0), milliseconds(0)).ops[1].value.contains("struck_ns"))
        << "a fault that does not say records none";
}
