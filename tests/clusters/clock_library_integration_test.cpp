// The clock library (clusters/clockshift/) in real processes: a program that
// reads the clocks as Go does, straight from the vDSO (vdso_clock_reader.c),
// sees them moved by the offset and the rate of its clock file, as the C
// library's callers do; with the vDSO patch off (LOCKCHECK_CLOCK_VDSO=off)
// the vDSO reading stays real, which shows the reader bypasses the C library
// and the patch is what moves it. And Go itself: etcd started with its wall
// clock a century ahead logs that century (skipped without /usr/bin/etcd).
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <map>
#include <sstream>

#include <unistd.h>

#include "clusters/clock_offset.hpp"
#include "host/system_command.hpp"

namespace lockcheck {
namespace {

constexpr std::int64_t kS = 1'000'000'000;

struct Reading {
    std::int64_t vdso = 0, libc = 0, kernel = 0;
};

/// The reader's lines, per clock name, in order: ("realtime", 0), ("monotonic", 0), then round 1.
using Readings = std::map<std::pair<std::string, int>, Reading>;

struct ClockDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("lockcheck-clock-library-" + std::to_string(::getpid()));
    ClockDir() { std::filesystem::create_directories(path); }
    ~ClockDir() { std::filesystem::remove_all(path); }
};

Readings read_clocks(const ClockDir& dir, const ClockState& state, const std::vector<std::string>& extra_env,
                     const std::string& sleep_ms = "") {
    auto env = clock_environment(std::filesystem::path(CLOCK_LIBRARY), dir.path);
    write_clock_state(dir.path, state);
    std::vector<std::string> argv{"env"};
    argv.insert(argv.end(), env.begin(), env.end());
    argv.insert(argv.end(), extra_env.begin(), extra_env.end());
    argv.push_back(VDSO_CLOCK_READER);
    if (!sleep_ms.empty()) argv.push_back(sleep_ms);
    const auto result = run_command(argv);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    Readings readings;
    std::istringstream lines(result.output);
    std::string name;
    std::map<std::string, int> rounds;
    Reading r;
    while (lines >> name >> r.vdso >> r.libc >> r.kernel) readings[{name, rounds[name]++}] = r;
    return readings;
}

ClockState moved(std::int64_t realtime_offset, std::int64_t monotonic_offset, std::int64_t monotonic_rate) {
    ClockState state = lc_clock_identity();
    state.realtime.offset_ns = realtime_offset;
    state.monotonic = {monotonic_offset, monotonic_rate, real_wall_clock_ns()};
    return state;
}

TEST(ClockLibrary, TheVdsoReadingMovesByTheOffsets) {
    ClockDir dir;
    const auto readings = read_clocks(dir, moved(3600 * kS, 10 * kS, LC_RATE_ONE), {});
    const Reading wall = readings.at({"realtime", 0}), mono = readings.at({"monotonic", 0});
    EXPECT_NEAR(static_cast<double>(wall.vdso - wall.kernel), 3600.0 * kS, 0.5 * kS) << "Go's way in";
    EXPECT_NEAR(static_cast<double>(wall.libc - wall.kernel), 3600.0 * kS, 0.5 * kS) << "the C library's";
    EXPECT_NEAR(static_cast<double>(mono.vdso - mono.kernel), 10.0 * kS, 0.5 * kS);
    EXPECT_NEAR(static_cast<double>(mono.libc - mono.kernel), 10.0 * kS, 0.5 * kS);
}

TEST(ClockLibrary, TheVdsoReadingRunsAtTheRate) {
    ClockDir dir;
    const auto readings = read_clocks(dir, moved(0, 0, 2 * LC_RATE_ONE), {}, "300");
    const Reading before = readings.at({"monotonic", 0}), after = readings.at({"monotonic", 1});
    const double real = static_cast<double>(after.kernel - before.kernel);
    EXPECT_NEAR(static_cast<double>(after.vdso - before.vdso) / real, 2.0, 0.1);
    EXPECT_NEAR(static_cast<double>(after.libc - before.libc) / real, 2.0, 0.1);
    EXPECT_NEAR(static_cast<double>(readings.at({"realtime", 1}).vdso - readings.at({"realtime", 1}).kernel), 0,
                0.5 * kS)
        << "the wall clock was not asked to move";
}

TEST(ClockLibrary, WithoutTheVdsoPatchOnlyTheCLibraryMoves) {
    ClockDir dir;
    const auto readings = read_clocks(dir, moved(3600 * kS, 10 * kS, LC_RATE_ONE), {"LOCKCHECK_CLOCK_VDSO=off"});
    const Reading wall = readings.at({"realtime", 0});
    EXPECT_NEAR(static_cast<double>(wall.vdso - wall.kernel), 0, 0.5 * kS) << "the reader bypasses the C library";
    EXPECT_NEAR(static_cast<double>(wall.libc - wall.kernel), 3600.0 * kS, 0.5 * kS);
}

TEST(ClockLibrary, GoReadsTheMovedWallClockEtcdLogsACenturyAhead) {
    if (!std::filesystem::exists("/usr/bin/etcd")) GTEST_SKIP() << "no /usr/bin/etcd";
    ClockDir dir;
    auto env = clock_environment(std::filesystem::path(CLOCK_LIBRARY), dir.path);
    ClockState state = lc_clock_identity();
    state.realtime.offset_ns = 100LL * 365 * 86'400 * kS;
    write_clock_state(dir.path, state);
    const std::string peer = "http://127.0.0.1:" + std::to_string(20000 + ::getpid() % 20000);
    const std::string client = "http://127.0.0.1:" + std::to_string(40000 + ::getpid() % 20000);
    std::vector<std::string> argv{"env"};
    argv.insert(argv.end(), env.begin(), env.end());
    argv.insert(argv.end(), {"timeout", "2", "/usr/bin/etcd", "--data-dir", (dir.path / "data").string(),
                             "--listen-client-urls", client, "--advertise-client-urls", client, "--listen-peer-urls",
                             peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "default=" + peer});
    const auto result = run_command(argv);
    // etcd 3.4 logs "YYYY-MM-DD hh:mm:ss.uuuuuu I | etcdmain: etcd Version: ..." (Go's time.Now).
    const auto at = result.output.find(" I | etcdmain:");
    ASSERT_NE(at, std::string::npos) << result.output;
    const int year = std::stoi(result.output.substr(result.output.rfind('\n', at) + 1, 4));
    const std::time_t now = std::time(nullptr);
    std::tm today{};
    ::gmtime_r(&now, &today);
    EXPECT_GE(year, today.tm_year + 1900 + 99) << result.output.substr(0, 400);
}

}  // namespace
}  // namespace lockcheck
