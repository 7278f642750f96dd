// The clock launcher (clusters/clockshift/static_launcher/) with real
// statically linked programs, which LD_PRELOAD never reaches: one that reads
// the clocks through glibc's static clock_gettime, gettimeofday and time
// (static_clock_reader.c), one that calls the vDSO itself as Go does
// (vdso_direct_reader.c). Under the launcher they see the clocks their
// clock file sets; the process the test forked is the process that prints
// (the launcher keeps the PID), and no tracer, zombie or not, is left.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "clusters/clock_offset.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"

namespace lockcheck {
namespace {

constexpr std::int64_t kS = 1'000'000'000;
constexpr double kSecond = 1e9;

struct ClockDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("lockcheck-clock-launcher-" + std::to_string(::getpid()));
    ClockDir() { std::filesystem::create_directories(path); }
    ~ClockDir() { std::filesystem::remove_all(path); }
};

/// This test process adopts orphans while it lives (a child subreaper), so
/// that a tracer the launcher left behind would become its child.
struct AdoptOrphans {
    AdoptOrphans() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }
    ~AdoptOrphans() { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }
};

/// A program's readings: per line name, the values of its rounds ("NAME VALUE KERNEL").
struct Outcome {
    pid_t forked = -1;
    int exit_code = -1;
    std::string output;
    std::string children_while_running = "?";  ///< /proc/PID/task/PID/children after its first line
    std::string tracer_while_running = "?";    ///< TracerPid in /proc/PID/status then
    std::map<std::pair<std::string, int>, std::pair<std::int64_t, std::int64_t>> readings;

    double moved_by(const std::string& name, int round = 0) const {
        const auto& r = readings.at({name, round});
        return static_cast<double>(r.first - r.second);
    }
};

std::string status_field(pid_t pid, const std::string& field) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind(field + ":", 0) == 0) return line.substr(field.size() + 2);
    return "?";
}

/// Forks, and execs `argv` with `env` added to this environment; reads its
/// stdout (stderr too) to the end.
/// Its readings from `output`.
void parse_readings(Outcome& result) {
    std::istringstream lines(result.output);
    std::map<std::string, int> rounds;
    std::string name;
    std::int64_t value = 0, kernel = 0;
    while (lines >> name >> value >> kernel) result.readings[{name, rounds[name]++}] = {value, kernel};
}

Outcome run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
    int out[2];
    EXPECT_EQ(::pipe2(out, O_CLOEXEC), 0);
    Outcome result;
    result.forked = ::fork();
    if (result.forked == 0) {
        ::dup2(out[1], 1);
        ::dup2(out[1], 2);
        for (const auto& entry : env) ::putenv(const_cast<char*>(entry.c_str()));
        std::vector<char*> args;
        for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(99);
    }
    ::close(out[1]);
    char buffer[4096];
    for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        const bool first = result.output.empty();
        result.output.append(buffer, static_cast<std::size_t>(n));
        if (first) {  // it runs, launched: what hangs on to it now?
            std::ifstream children("/proc/" + std::to_string(result.forked) + "/task/" + std::to_string(result.forked) +
                                   "/children");
            std::getline(children, result.children_while_running);
            result.tracer_while_running = status_field(result.forked, "TracerPid");
        }
    }
    ::close(out[0]);
    int status = 0;
    EXPECT_EQ(::waitpid(result.forked, &status, 0), result.forked);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    parse_readings(result);
    return result;
}

std::vector<std::string> clock_file_env(const ClockDir& dir) {
    return {"LOCKCHECK_CLOCK_OFFSET_FILE=" + clock_offset_file(dir.path).string()};
}

ClockState moved(std::int64_t realtime_offset, std::int64_t monotonic_rate) {
    ClockState state = lc_clock_identity();
    state.realtime.offset_ns = realtime_offset;
    state.monotonic = {0, monotonic_rate, real_wall_clock_ns()};
    return state;
}

/// Runs `program` (with `arguments`) under the launcher, its clock file holding `state`.
Outcome launched(const ClockDir& dir, const ClockState& state, const std::string& program,
                 const std::vector<std::string>& arguments = {}) {
    write_clock_state(dir.path, state);
    std::vector<std::string> argv{CLOCK_LAUNCHER, "--", program};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return run_program(argv, clock_file_env(dir));
}

/// No child of this process is left, zombie or alive (the launcher's tracer would be one: AdoptOrphans).
void expect_no_children() {
    errno = 0;
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD) << "a process was left behind";
}

TEST(ClockLauncher, TheStaticProgramSeesItsClocksMovedKeepsThePidAndNothingIsLeft) {
    AdoptOrphans adopt;
    ClockDir dir;
    const Outcome r = launched(dir, moved(3600 * kS, 2 * LC_RATE_ONE), STATIC_CLOCK_READER, {"300"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.readings.at({"pid", 0}).first, r.forked) << "the process the harness started is the program";
    EXPECT_EQ(r.children_while_running, "") << "the tracer is gone once the program runs";
    EXPECT_EQ(r.tracer_while_running, "0") << "and nothing traces it";
    for (const char* name : {"realtime", "gettimeofday"})
        for (int round : {0, 1}) EXPECT_NEAR(r.moved_by(name, round), 3600 * kSecond, 0.5 * kSecond) << name;
    EXPECT_NEAR(r.moved_by("time"), 3600 * kSecond, 1.5 * kSecond);
    const auto& before = r.readings.at({"monotonic", 0});
    const auto& after = r.readings.at({"monotonic", 1});
    const double rate =
        static_cast<double>(after.first - before.first) / static_cast<double>(after.second - before.second);
    EXPECT_GT(rate, 1.7) << "monotonic runs at 2.0";
    EXPECT_LT(rate, 2.3);
    expect_no_children();
}

TEST(ClockLauncher, AStaticProgramsMonotonicClockAtRateHalfAdvancesHalfAsFast) {
    AdoptOrphans adopt;
    ClockDir dir;
    const Outcome r = launched(dir, moved(0, LC_RATE_ONE / 2), STATIC_CLOCK_READER, {"300"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto& before = r.readings.at({"monotonic", 0});
    const auto& after = r.readings.at({"monotonic", 1});
    const double rate =
        static_cast<double>(after.first - before.first) / static_cast<double>(after.second - before.second);
    EXPECT_GT(rate, 0.35);
    EXPECT_LT(rate, 0.65);
    EXPECT_NEAR(r.moved_by("realtime", 1), 0, 0.5 * kSecond) << "the wall clock was not asked to move";
    expect_no_children();
}

TEST(ClockLauncher, WithoutTheLauncherOrWithTheIdentityNothingMoves) {
    AdoptOrphans adopt;
    ClockDir dir;
    write_clock_state(dir.path, moved(3600 * kS, 2 * LC_RATE_ONE));
    auto env = clock_file_env(dir);
    env.push_back(std::string("LD_PRELOAD=") + CLOCK_LIBRARY);
    const Outcome plain = run_program({STATIC_CLOCK_READER}, env);
    ASSERT_EQ(plain.exit_code, 0) << plain.output;
    EXPECT_NEAR(plain.moved_by("realtime"), 0, 0.5 * kSecond) << "LD_PRELOAD does not reach a static program";
    const Outcome identity = launched(dir, lc_clock_identity(), STATIC_CLOCK_READER);
    ASSERT_EQ(identity.exit_code, 0) << identity.output;
    for (const char* name : {"realtime", "monotonic", "gettimeofday"})
        EXPECT_NEAR(identity.moved_by(name), 0, 0.5 * kSecond) << name;
    expect_no_children();
}

TEST(ClockLauncher, AProgramThatCallsTheVdsoItselfAsGoDoesSeesTheMovedClocks) {
    AdoptOrphans adopt;
    ClockDir dir;
    ClockState state = moved(3600 * kS, LC_RATE_ONE);
    state.monotonic.offset_ns = 10 * kS;
    const Outcome r = launched(dir, state, VDSO_DIRECT_READER);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.readings.at({"pid", 0}).first, r.forked);
    EXPECT_NEAR(r.moved_by("realtime"), 3600 * kSecond, 0.5 * kSecond);
    EXPECT_NEAR(r.moved_by("monotonic"), 10 * kSecond, 0.5 * kSecond);
    const Outcome unlaunched = run_program({VDSO_DIRECT_READER}, clock_file_env(dir));
    EXPECT_NEAR(unlaunched.moved_by("realtime"), 0, 0.5 * kSecond) << "the reader is real without the launcher";
    expect_no_children();
}

TEST(ClockLauncher, ADynamicProgramOrAScriptIsSimplyExeced) {
    ClockDir dir;
    const Outcome r = launched(dir, lc_clock_identity(), "/bin/sh", {"-c", "echo pid $$ 0; exit 3"});
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_EQ(r.readings.at({"pid", 0}).first, r.forked);
}

TEST(ClockLauncher, BadUsageAndAMissingProgramFailWithOneLine) {
    AdoptOrphans adopt;
    ClockDir dir;
    const Outcome usage = run_program({CLOCK_LAUNCHER, "/bin/true"}, {});
    EXPECT_EQ(usage.exit_code, 2);
    EXPECT_NE(usage.output.find("usage: lockcheck-clock-launch -- PROGRAM"), std::string::npos) << usage.output;
    const Outcome missing = launched(dir, lc_clock_identity(), (dir.path / "no-such-program").string());
    EXPECT_EQ(missing.exit_code, 127);
    EXPECT_NE(missing.output.find("lockcheck-clock-launch: cannot run"), std::string::npos) << missing.output;
    const Outcome too_long = run_program({CLOCK_LAUNCHER, "--", STATIC_CLOCK_READER},
                                         {"LOCKCHECK_CLOCK_OFFSET_FILE=/" + std::string(5000, 'x')});
    EXPECT_EQ(too_long.exit_code, 126);
    EXPECT_NE(too_long.output.find("cannot move the clock of the statically linked"), std::string::npos)
        << too_long.output;
    EXPECT_EQ(too_long.output.find("pid "), std::string::npos) << "a static program never runs unpatched";
    // A static program the kernel refuses (another machine's): the tracer waited for its exec in vain.
    const auto foreign = dir.path / "foreign-static-program";
    std::filesystem::copy_file(STATIC_CLOCK_READER, foreign);
    {
        std::fstream elf(foreign, std::ios::in | std::ios::out | std::ios::binary);
        elf.seekp(18);                            // e_machine
        elf.put(static_cast<char>(0xb7)).put(0);  // EM_AARCH64
    }
    const Outcome refused = launched(dir, lc_clock_identity(), foreign.string());
    EXPECT_EQ(refused.exit_code, 127) << refused.output;
    EXPECT_NE(refused.output.find("lockcheck-clock-launch: cannot run"), std::string::npos) << refused.output;
    expect_no_children();
}

/// A server started by a node runtime with the clock launcher (what
/// make_topology_node asks for when the run moves clocks) is a static
/// program whose clocks move, under the PID the runtime knows.
TEST(ClockLauncher, ANodeRuntimeStartsAStaticServerBehindTheLauncher) {
    AdoptOrphans adopt;
    ClockDir dir;
    const auto runtime = make_node_runtime(
        "netns", NodePlacement{"n1", "127.0.0.1", std::nullopt, dir.path / "server.log", "", {}, "", {}});
    auto env = clock_environment(std::filesystem::path(CLOCK_LIBRARY), dir.path);
    write_clock_state(dir.path, moved(3600 * kS, LC_RATE_ONE));
    runtime->start({{STATIC_CLOCK_READER, "300"}, env, std::filesystem::path(CLOCK_LAUNCHER)});
    const pid_t pid = runtime->pid();
    for (int i = 0; i < 500 && runtime->running(); ++i) ::usleep(10'000);
    ASSERT_EQ(runtime->exit_status(), 0) << runtime->read_log();
    Outcome r;
    r.output = runtime->read_log();
    parse_readings(r);
    EXPECT_EQ(r.readings.at({"pid", 0}).first, pid) << "the PID the runtime tracks and signals";
    EXPECT_NEAR(r.moved_by("realtime"), 3600 * kSecond, 0.5 * kSecond) << r.output;
    EXPECT_EQ(launch_command({{"etcd", "--name", "n1"}, {}, std::filesystem::path("/l/lockcheck-clock-launch")}),
              (std::vector<std::string>{"/l/lockcheck-clock-launch", "--", "etcd", "--name", "n1"}));
    EXPECT_EQ(clock_launcher_beside("/usr/lib/lockcheck/libclockshift.so"),
              std::filesystem::path("/usr/lib/lockcheck/lockcheck-clock-launch"));
}

/// When the launcher's tracer cannot trace it (here: it is traced already,
/// by this test), it says so in one line and fails; the program never runs.
TEST(ClockLauncher, WhenPtraceIsRefusedItFailsWithOneLineAndNeverHangs) {
    ClockDir dir;
    write_clock_state(dir.path, lc_clock_identity());
    int out[2];
    ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
    const std::string file = "LOCKCHECK_CLOCK_OFFSET_FILE=" + clock_offset_file(dir.path).string();
    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(out[1], 2);
        ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
        char* argv[] = {const_cast<char*>(CLOCK_LAUNCHER), const_cast<char*>("--"),
                        const_cast<char*>(STATIC_CLOCK_READER), nullptr};
        char* envp[] = {const_cast<char*>(file.c_str()), nullptr};
        ::execve(argv[0], argv, envp);
        ::_exit(99);
    }
    ::close(out[1]);
    int status = 0;
    while (::waitpid(child, &status, 0) == child && WIFSTOPPED(status)) {
        const int signal = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
        ::ptrace(PTRACE_CONT, child, nullptr, reinterpret_cast<void*>(static_cast<intptr_t>(signal)));
    }
    std::string output(4096, '\0');
    output.resize(static_cast<std::size_t>(std::max<ssize_t>(0, ::read(out[0], output.data(), output.size()))));
    ::close(out[0]);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 126) << output;
    EXPECT_NE(output.find("lockcheck-clock-launch: cannot move the clock of the statically linked"), std::string::npos)
        << output;
    EXPECT_NE(output.find("ptrace refused: Operation not permitted"), std::string::npos) << output;
    EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 1) << "one line: " << output;
    EXPECT_EQ(output.find("pid "), std::string::npos) << "the program did not run: " << output;
}

}  // namespace
}  // namespace lockcheck
