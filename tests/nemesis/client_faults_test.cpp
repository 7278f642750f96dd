// The client faults against a fake worker pool: pause-client (which workers
// it may stop, any live one or only waiters; that it resumes the one it
// stopped) and client-clock-skew (the target's offset file, moved and put
// back; how workers are launched for it); how a spec sets their options.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "clusters/clock_offset.hpp"
#include "run/run_setup.hpp"
#include "spec/run_plan.hpp"
#include "spec/spec.hpp"
#include "workers/worker_launch.hpp"
#include "nemesis/client_clock_skew.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/fault_registry.hpp"
#include "nemesis/pause_client.hpp"
#include "tests/support/spec_test_support.hpp"

using namespace lockcheck;
using lockcheck::testing::spec_error_of;
using std::chrono::milliseconds;

namespace {

class FakeWorkers : public WorkerControl {
public:
    std::vector<int> live;
    std::vector<int> holding;
    std::vector<int> waiting;  ///< acquiring_for answers these for at least `waited`
    milliseconds waited{0};
    std::vector<int> renewing_now;  ///< renews sent, not yet answered
    std::int64_t renews = 0;        ///< renews sent in the run so far
    std::vector<int> gone;  ///< pause_worker fails for these (replaced meanwhile)
    std::vector<int> paused, resumed;
    mutable std::vector<milliseconds> asked;

    std::vector<int> holders() const override { return holding; }
    std::vector<int> live_workers() const override { return live; }
    std::vector<int> acquiring_for(milliseconds at_least) const override {
        asked.push_back(at_least);
        return at_least <= waited ? waiting : std::vector<int>{};
    }
    std::vector<int> renewing() const override { return renewing_now; }
    std::int64_t renews_sent() const override { return renews; }
    bool pause_worker(int process) override {
        if (std::find(gone.begin(), gone.end(), process) != gone.end()) {
            live.erase(std::find(live.begin(), live.end(), process));
            return false;
        }
        paused.push_back(process);
        return true;
    }
    void resume_worker(int process) override { resumed.push_back(process); }
};

FaultEvent event(std::uint64_t pick) {
    FaultEvent e;
    e.kind = "pause-client";
    e.pick = pick;
    return e;
}

/// The clock state the clock file of worker `process` under `workers_dir` holds, if any.
std::optional<ClockState> state_of(const std::filesystem::path& workers_dir, int process) {
    std::ifstream in(clock_offset_file(worker_clock_dir(workers_dir, process)));
    return clock_state_of(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

/// The wall-clock offset in ms the clock file of worker `process` under `workers_dir` holds; -1 for none.
long long offset_of(const std::filesystem::path& workers_dir, int process) {
    const auto state = state_of(workers_dir, process);
    return state ? state->realtime.offset_ns / 1'000'000 : -1;
}

/// A change of the monotonic clock only, in `mode`.
ClockChange monotonic_change(ClockMode mode) {
    ClockChange change;
    change.realtime = false;
    change.monotonic = true;
    change.mode = mode;
    return change;
}

/// A fresh RUN_DIR/workers for one test, removed with it.
struct WorkersDir {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("lockcheck-client-faults-" + std::to_string(::getpid())) / "workers";
    WorkersDir() { std::filesystem::create_directories(path); }
    ~WorkersDir() { std::filesystem::remove_all(path.parent_path()); }
};

/// One live worker, `process`, started with the clock library: its clock file holds the state that moves nothing.
struct OneWorkerWithAClock {
    WorkersDir dir;
    FakeWorkers workers;
    explicit OneWorkerWithAClock(int process) {
        workers.live = {process};
        clock_environment(std::filesystem::path("/lib/x.so"), worker_clock_dir(dir.path, process));
    }
};

std::stop_token stopped() {
    std::stop_source stop;
    stop.request_stop();
    return stop.get_token();
}

}  // namespace

TEST(PauseClient, StopsAnyLiveWorkerNotOnlyTheHolder) {
    FakeWorkers workers;
    workers.live = {5, 1, 3};
    workers.holding = {3};
    PauseClient fault(workers, {});
    const auto targets = fault.start(event(1), std::stop_token{});  // sorted {1, 3, 5}: pick 1 -> 3
    ASSERT_TRUE(targets);
    EXPECT_EQ(*targets, std::vector<std::string>{"worker 3"});
    PauseClient other(workers, {});
    EXPECT_EQ(*other.start(event(3), std::stop_token{}), std::vector<std::string>{"worker 1"}) << "a non-holder";
    EXPECT_EQ(workers.paused, (std::vector<int>{3, 1}));
}

TEST(PauseClient, ResumesTheWorkerItStoppedOnceAtTheHeal) {
    FakeWorkers workers;
    workers.live = {2};
    PauseClient fault(workers, {});
    ASSERT_TRUE(fault.start(event(0), std::stop_token{}));
    fault.heal();
    fault.heal();  // idempotent
    EXPECT_EQ(workers.resumed, std::vector<int>{2});
}

TEST(PauseClient, WaitingTargetsOnlyWorkersWhoseAcquireIsInFlightLongEnough) {
    FakeWorkers workers;
    workers.live = {0, 1, 2, 3};
    workers.waiting = {2};
    workers.waited = milliseconds(500);
    PauseClient fault(workers, {.aim = WorkerAim::Waiting, .waiting_for = milliseconds(300)});
    EXPECT_EQ(*fault.start(event(7), std::stop_token{}), std::vector<std::string>{"worker 2"});
    EXPECT_EQ(workers.asked.back(), milliseconds(300));
    PauseClient too_long(workers, {.aim = WorkerAim::Waiting, .waiting_for = milliseconds(800)});
    EXPECT_FALSE(too_long.start(event(0), stopped())) << "no waiter that long: it strikes nothing";
    too_long.heal();
    EXPECT_EQ(workers.resumed, std::vector<int>{}) << "nothing to resume";
}

TEST(PauseClient, RenewingAimsAtAHolderWhoseRenewIsInFlight) {
    FakeWorkers workers;
    workers.live = {0, 1, 2, 3};
    workers.holding = {1, 3};
    workers.renewing_now = {3, 2};  // 2 holds nothing any more: its renew is no holder's
    workers.renews = 5;
    const PauseClientTarget renewing{.aim = WorkerAim::Renewing};
    EXPECT_EQ(pause_client_candidates(workers, renewing), std::vector<int>{3});
    PauseClient fault(workers, renewing);
    EXPECT_EQ(*fault.start(event(4), std::stop_token{}), std::vector<std::string>{"worker 3"});
    workers.renewing_now = {};
    PauseClient none(workers, renewing);
    EXPECT_FALSE(none.start(event(0), stopped())) << "renews were sent, none in flight now: it waits, strikes nothing";
}

TEST(PauseClient, SaysWhenItStruck) {
    FakeWorkers workers;
    workers.live = {2};
    PauseClient fault(workers, {});
    EXPECT_FALSE(fault.struck_at()) << "nothing struck yet";
    const auto before = std::chrono::steady_clock::now();
    ASSERT_TRUE(fault.start(event(0), std::stop_token{}));
    const auto after = std::chrono::steady_clock::now();
    ASSERT_TRUE(fault.struck_at());
    EXPECT_GE(*fault.struck_at(), before);
    EXPECT_LE(*fault.struck_at(), after);
}

TEST(PauseClient, RenewingTakesAnyHolderUntilTheRunsFirstRenew) {
    FakeWorkers workers;
    workers.live = {0, 1, 2};
    workers.holding = {2};
    EXPECT_EQ(pause_client_candidates(workers, {.aim = WorkerAim::Renewing}), std::vector<int>{2})
        << "workers that never renewed: a holder is the nearest moment";
    workers.renews = 1;
    EXPECT_TRUE(pause_client_candidates(workers, {.aim = WorkerAim::Renewing}).empty());
}

TEST(PauseClient, LoneHolderOnlyWhileNoOtherWorkerHoldsOrWaits) {
    FakeWorkers workers;
    workers.live = {0, 1, 2};
    workers.holding = {1};
    workers.waited = milliseconds(50);
    const PauseClientTarget lone{.aim = WorkerAim::LoneHolder};
    EXPECT_EQ(pause_client_candidates(workers, lone), std::vector<int>{1}) << "the others think";
    workers.waiting = {1};
    EXPECT_EQ(pause_client_candidates(workers, lone), std::vector<int>{1}) << "its own re-entry waits for nothing else";
    workers.waiting = {0};
    EXPECT_TRUE(pause_client_candidates(workers, lone).empty()) << "a waiter would take the key at once";
    EXPECT_EQ(workers.asked.back(), milliseconds(0)) << "any acquire in flight, however fresh, counts";
    workers.waiting = {};
    workers.holding = {1, 2};
    EXPECT_TRUE(pause_client_candidates(workers, lone).empty()) << "two holders (of two keys): not the only one";
    workers.holding = {};
    EXPECT_TRUE(pause_client_candidates(workers, lone).empty());
}

TEST(PauseClient, AimNamesRoundTrip) {
    for (const auto& name : worker_aim_names()) {
        const auto aim = worker_aim_named(name);
        ASSERT_TRUE(aim) << name;
        EXPECT_EQ(worker_aim_names()[static_cast<std::size_t>(*aim)], name);
    }
    EXPECT_FALSE(worker_aim_named("thinker"));
}

TEST(PauseClient, ChoosesAgainWhenItsChoiceWasReplaced) {
    FakeWorkers workers;
    workers.live = {4, 6};
    workers.gone = {4};
    PauseClient fault(workers, {});
    EXPECT_EQ(*fault.start(event(0), std::stop_token{}), std::vector<std::string>{"worker 6"});
}

TEST(PauseClient, OptionsDefaultToAnyWorkerAndAreChecked) {
    const auto& descriptor = *find_fault("pause-client");
    const auto defaults = fault_options_for(descriptor, nlohmann::json::object(), OptionContext{1000});
    EXPECT_EQ(defaults.at("pause_client_target"), "any");
    EXPECT_EQ(defaults.at("pause_client_waiting_for_ms"), 0);
    EXPECT_EQ(spec_error_of({{"pause_client_target", "waiting"}, {"pause_client_waiting_for_ms", 200}}), "");
    const auto target = spec_error_of({{"pause_client_target", "thinker"}});
    EXPECT_NE(target.find("field 'pause_client_target'"), std::string::npos) << target;
    EXPECT_NE(target.find("any, waiting, renewing, lone-holder or holder"), std::string::npos) << target;
    EXPECT_EQ(spec_error_of({{"pause_client_target", "renewing"}}), "");
    EXPECT_EQ(spec_error_of({{"pause_client_target", "lone-holder"}}), "");
    EXPECT_NE(spec_error_of({{"pause_client_waiting_for_ms", -5}}).find("field 'pause_client_waiting_for_ms'"),
              std::string::npos);
}

TEST(ClientClockSkew, MovesOneWorkersWallClockAndPutsItBack) {
    WorkersDir dir;
    FakeWorkers workers;
    workers.live = {1, 2, 3};
    for (int process : {2, 3}) clock_environment(std::filesystem::path("/lib/x.so"), worker_clock_dir(dir.path, process));
    ClockChange jump;
    jump.jump_ms = -1500;
    ClientClockSkew fault(workers, dir.path, jump);
    EXPECT_EQ(fault.unavailable_reason(), std::nullopt);
    // Worker 1 has no offset file (not started with the library): candidates {2, 3}, pick 1 -> 3.
    EXPECT_EQ(*fault.start(event(1), std::stop_token{}), std::vector<std::string>{"worker 3"});
    EXPECT_EQ(offset_of(dir.path, 3), -1500);
    EXPECT_EQ(offset_of(dir.path, 2), 0) << "only the target moves";
    fault.heal();
    EXPECT_EQ(offset_of(dir.path, 3), 0);
    fault.heal();  // idempotent
}

TEST(ClientClockSkew, AimedAtAHolderMovesOnlyAHoldersClock) {
    WorkersDir dir;
    FakeWorkers workers;
    workers.live = {1, 2, 3};
    workers.holding = {1, 2};
    for (int process : {2, 3}) clock_environment(std::filesystem::path("/lib/x.so"), worker_clock_dir(dir.path, process));
    ClockChange jump;
    jump.jump_ms = 700;
    ClientClockSkew fault(workers, dir.path, jump, {.aim = WorkerAim::Holder});
    // Holders {1, 2}, of which only 2 has a clock file: whatever the pick, 2.
    EXPECT_EQ(*fault.start(event(5), std::stop_token{}), std::vector<std::string>{"worker 2"});
    EXPECT_EQ(offset_of(dir.path, 3), 0) << "a thinker's clock stays";
    fault.heal();
    workers.holding = {1};
    ClientClockSkew none(workers, dir.path, jump, {.aim = WorkerAim::Holder});
    EXPECT_FALSE(none.start(event(0), stopped())) << "no holder with a clock: nothing moves";
    EXPECT_EQ(offset_of(dir.path, 2), 0);
}

TEST(ClientClockSkew, TargetOptionDefaultsToAnyAndIsChecked) {
    const auto& descriptor = *find_fault("client-clock-skew");
    const auto defaults = fault_options_for(descriptor, nlohmann::json::object(), OptionContext{1000});
    EXPECT_EQ(defaults.at("client_clock_target"), "any");
    const auto wrong = spec_error_of({{"nemesis", {"client-clock-skew"}}, {"client_clock_target", "thinker"}});
    EXPECT_NE(wrong.find("field 'client_clock_target'"), std::string::npos) << wrong;
}

TEST(ClientClockSkew, DriftsOneWorkersMonotonicClockAndKeepsItsGainAtTheHeal) {
    OneWorkerWithAClock w(2);
    const auto& dir = w.dir;
    ClockChange slow = monotonic_change(ClockMode::drift);
    slow.rate_ppb = 500'000'000;
    ClientClockSkew fault(w.workers, dir.path, slow);
    ASSERT_TRUE(fault.start(event(0), std::stop_token{}));
    ASSERT_TRUE(state_of(dir.path, 2));
    EXPECT_EQ(state_of(dir.path, 2)->monotonic.rate_ppb, 500'000'000);
    EXPECT_FALSE(lc_clock_line_moves(&state_of(dir.path, 2)->realtime)) << "only the clocks asked for";
    fault.heal();
    EXPECT_EQ(state_of(dir.path, 2)->monotonic.rate_ppb, LC_RATE_ONE);
    EXPECT_LE(state_of(dir.path, 2)->monotonic.offset_ns, 0) << "what it lost stays lost: it never goes back";
}

TEST(ClientClockSkew, MonotonicJumpsAccumulateFromOneFaultToTheNext) {
    OneWorkerWithAClock w(1);
    const auto& dir = w.dir;
    ClockChange jump = monotonic_change(ClockMode::jump);
    jump.jump_ms = 700;
    ClientClockSkew fault(w.workers, dir.path, jump);
    for (std::int64_t strike = 1; strike <= 2; ++strike) {
        ASSERT_TRUE(fault.start(event(0), std::stop_token{}));
        EXPECT_EQ(state_of(dir.path, 1)->monotonic.offset_ns, 700'000'000 * strike);
        fault.heal();
        EXPECT_EQ(state_of(dir.path, 1)->monotonic.offset_ns, 700'000'000 * strike)
            << "kept at the heal: it never goes back";
    }
}

TEST(ClientClockSkew, UnavailableWhenTheWorkersRunWithoutTheLibrary) {
    FakeWorkers workers;
    EXPECT_EQ(ClientClockSkew(workers, {}, ClockChange{}).unavailable_reason(),
              std::optional<std::string>("the workers do not run with the clock library"));
}

TEST(ClientClockSkew, WorkersAreExecdWithTheLibraryAndAnOffsetFileOfTheirOwn) {
    WorkersDir dir;
    const Spec spec = spec_from_json({{"nemesis", {"client-clock-skew"}}}, "t");
    EXPECT_FALSE(worker_clock_library(plan_run(spec_from_json({{"nemesis", {"pause-client"}}}, "t")), "/bin/lockcheck"))
        << "no fault of the nemesis needs it";
    EXPECT_THROW(worker_clock_library(plan_run(spec), dir.path / "lockcheck"), std::runtime_error)
        << "no library beside it";
    const auto launch = worker_launch(spec, {"127.0.0.1:6379"}, std::nullopt, "/bin/lockcheck", dir.path.parent_path(),
                                      "r1", 4, nullptr, std::filesystem::path("/lib/libclockshift.so"));
    const auto file = clock_offset_file(worker_clock_dir(dir.path, 4));
    EXPECT_EQ(launch.child.env, (std::vector<std::string>{"LD_PRELOAD=/lib/libclockshift.so",
                                                          "LOCKCHECK_CLOCK_OFFSET_FILE=" + file.string()}));
    EXPECT_EQ(offset_of(dir.path, 4), 0);
    EXPECT_FALSE(launch.child.start) << "exec'd, not forked";
    EXPECT_TRUE(worker_launch(spec, {}, std::nullopt, "/bin/lockcheck", dir.path.parent_path(), "r1", 5).child.env.empty());
}

TEST(ClientClockSkew, OptionIsAJumpEitherWayOfAtMostADay) {
    const auto& descriptor = *find_fault("client-clock-skew");
    EXPECT_EQ(fault_options_for(descriptor, nlohmann::json::object(), OptionContext{1000}).at("client_clock_skew_ms"),
              2000)
        << "default 2xttl";
    EXPECT_EQ(fault_options_for(descriptor, {{"client_clock_skew_ms", -700}}, OptionContext{1000})
                  .at("client_clock_skew_ms"),
              -700);
    EXPECT_NE(spec_error_of({{"client_clock_skew_ms", 100'000'000}}).find("field 'client_clock_skew_ms'"),
              std::string::npos);
    EXPECT_NE(spec_error_of({{"client_clock_skew_ms", "fast"}}).find("field 'client_clock_skew_ms'"), std::string::npos);
}
