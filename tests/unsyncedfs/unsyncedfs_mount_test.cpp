// The harness's handle on the lose-unsynced filesystem (UnsyncedMount) when
// its daemon dies or hangs, the disk errors it sets and heals while mounted,
// and `lockcheck clean` taking down what dead runs left mounted. A dead or
// hung daemon must never leave a mount behind.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>

#include "host/child_process.hpp"
#include "run/dead_runs.hpp"
#include "host/line_channel.hpp"
#include "run/run_liveness.hpp"
#include "tests/unsyncedfs/unsyncedfs_fixture.hpp"
#include "unsyncedfs/availability.hpp"
#include "unsyncedfs/mounts.hpp"

namespace lockcheck::testing {
namespace {

using namespace std::chrono_literals;

/// Waits up to `limit` for `condition`.
template <typename Condition>
bool eventually(Condition condition, std::chrono::milliseconds limit = 3000ms) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(10ms);
    }
    return true;
}

/// Whether every thread of `pid` is stopped (state T in /proc/PID/task/*/stat).
/// kill(SIGSTOP) returns before a thread running on another core has stopped.
bool all_threads_stopped(pid_t pid) {
    const std::filesystem::path tasks = "/proc/" + std::to_string(pid) + "/task";
    std::error_code error;
    bool any = false;
    for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
        std::ifstream stat(task.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'T') return false;
        any = true;
    }
    return any && !error;
}

using MountTest = UnsyncedFsTest;

TEST_F(MountTest, MountsAndUnmountsOverTheBackingDirectory) {
    std::ofstream(backing() / "before") << "there";
    {
        UnsyncedMount mount(options());
        EXPECT_TRUE(is_mount_point(mountpoint()));
        EXPECT_TRUE(std::filesystem::exists(mountpoint() / "before"));
        std::ofstream(mountpoint() / "written") << "through the mount";
        EXPECT_NE(mount.status().find("unsynced-files=1"), std::string::npos) << mount.status();
    }
    EXPECT_FALSE(is_mount_point(mountpoint()));
    EXPECT_TRUE(std::filesystem::exists(backing() / "written"));
}

TEST_F(MountTest, DiskErrorsFailSyncsAndWritesThroughTheMountUntilHealed) {
    UnsyncedMount mount(options());
    const auto file = mountpoint() / "aof";
    const auto backing_bytes = [&] {
        std::ifstream in(backing() / "aof", std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const int fd = ::open(file.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    ASSERT_EQ(::write(fd, "synced", 6), 6);
    ASSERT_EQ(::fsync(fd), 0);
    ASSERT_EQ(::write(fd, "+lost", 5), 5);
    mount.set_disk_errors({.fsync_errno = EIO, .write_errno = 0});
    EXPECT_EQ(::fsync(fd), -1);
    EXPECT_EQ(errno, EIO);
    EXPECT_EQ(backing_bytes(), "synced") << "the failed sync dropped the unsynced write";
    mount.set_disk_errors({.fsync_errno = 0, .write_errno = ENOSPC});
    EXPECT_EQ(::pwrite(fd, "full", 4, 6), -1);
    EXPECT_EQ(errno, ENOSPC);
    mount.set_disk_errors({});
    EXPECT_EQ(::pwrite(fd, "+kept", 5, 6), 5) << std::strerror(errno);
    EXPECT_EQ(::fsync(fd), 0) << std::strerror(errno);
    ::close(fd);
    EXPECT_EQ(backing_bytes(), "synced+kept");
    EXPECT_FALSE(mount.failure());
}

TEST_F(MountTest, ADeadDaemonIsUnmountedAndReported) {
    std::atomic<int> reports{0};
    std::string reported;
    auto o = options();
    o.on_failure = [&](const std::string& message) {
        reported = message;
        ++reports;
    };
    UnsyncedMount mount(o);
    const int open_fd = ::open((mountpoint() / "open-file").c_str(), O_CREAT | O_WRONLY, 0644);
    ASSERT_GE(open_fd, 0);
    const pid_t daemon = mount.daemon_pid();
    ASSERT_GT(daemon, 0);
    ::kill(daemon, SIGKILL);

    ASSERT_TRUE(eventually([&] { return reports.load() == 1; })) << "the death was not reported";
    EXPECT_NE(reported.find("died"), std::string::npos) << reported;
    EXPECT_EQ(mount.failure(), reported);
    EXPECT_FALSE(is_mount_point(mountpoint())) << "a dead daemon left its mount";
    // A process that still had a file open gets an error at once, not a hang.
    EXPECT_EQ(::write(open_fd, "x", 1), -1);
    EXPECT_EQ(errno, ENOTCONN);
    ::close(open_fd);
    struct stat st {};
    EXPECT_EQ(::stat(mountpoint().c_str(), &st), 0);
    try {
        mount.power_loss();
        ADD_FAILURE() << "power_loss() on a dead filesystem did not throw";
    } catch (const UnsyncedFsError& e) {
        EXPECT_NE(std::string(e.what()).find("died"), std::string::npos) << e.what();
    }
    EXPECT_EQ(reports.load(), 1);
}

TEST_F(MountTest, AHungDaemonIsKilledAndUnmountedWhenItDoesNotAnswer) {
    auto o = options();
    o.timeout = 1000ms;
    UnsyncedMount mount(o);
    ::kill(mount.daemon_pid(), SIGSTOP);
    ASSERT_TRUE(eventually([&] { return all_threads_stopped(mount.daemon_pid()); })) << "the daemon never stopped";
    const auto start = std::chrono::steady_clock::now();
    try {
        mount.power_loss();
        ADD_FAILURE() << "power_loss() on a stopped daemon did not throw";
    } catch (const UnsyncedFsError& e) {
        EXPECT_NE(std::string(e.what()).find("did not answer"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
    EXPECT_FALSE(is_mount_point(mountpoint())) << "a hung daemon left its mount";
    EXPECT_TRUE(mount.failure().has_value());
}

TEST_F(MountTest, RefusesAMountPointThatIsMountedAlready) {
    UnsyncedMount first(options());
    try {
        UnsyncedMount second(options());
        ADD_FAILURE() << "a second mount on the same mount point was accepted";
    } catch (const UnsyncedFsError& e) {
        EXPECT_NE(std::string(e.what()).find("mount point already"), std::string::npos) << e.what();
    }
}

TEST_F(MountTest, AnUnmountableDaemonFailsTheMountWithItsReason) {
    auto o = options();
    o.backing = scratch() / "missing";
    try {
        UnsyncedMount mount(o);
        ADD_FAILURE() << "a mount of a missing backing directory was accepted";
    } catch (const UnsyncedFsError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot open the backing directory"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(is_mount_point(mountpoint()));
}

TEST_F(MountTest, SaysWhyItCannotRunWithoutItsDaemon) {
    EXPECT_FALSE(unsyncedfs_unavailable_reason(unsyncedfs_daemon()).has_value());
    const auto reason = unsyncedfs_unavailable_reason(scratch() / "no-such-daemon");
    ASSERT_TRUE(reason.has_value());
    EXPECT_NE(reason->find("lockcheck-unsyncedfs is missing"), std::string::npos) << *reason;
    EXPECT_EQ(find_unsyncedfs_daemon(scratch() / "lockcheck"), std::filesystem::path());
    EXPECT_EQ(find_unsyncedfs_daemon(unsyncedfs_daemon().parent_path() / "lockcheck"), unsyncedfs_daemon());
}

/// A daemon started the way a run starts it, but left behind as a dead run leaves it.
struct LeftoverDaemon {
    std::filesystem::path mountpoint;
    std::unique_ptr<ChildProcess> process;

    LeftoverDaemon(const std::filesystem::path& scratch, const std::string& run_id, const std::string& node)
        : mountpoint(scratch / (run_id + "-" + node)) {
        const auto backing = scratch / (run_id + "-" + node + "-data");
        std::filesystem::create_directories(backing);
        std::filesystem::create_directories(mountpoint);
        process = std::make_unique<ChildProcess>(
            ChildSpec{{unsyncedfs_daemon().string(), "--backing", backing.string(), "--mountpoint", mountpoint.string(),
                       "--fsname", unsyncedfs_fsname(run_id, node)},
                      std::nullopt,
                      scratch / (run_id + "-" + node + ".log"),
                      true});
        LineChannel channel(process->stdout_fd(), process->stdin_fd());
        std::string line;
        channel.read_line(line, std::chrono::steady_clock::now() + 10s);
        EXPECT_EQ(line, "ready");
    }
};

TEST_F(MountTest, CleanUnmountsWhatADeadRunLeftMountedAndNothingElse) {
    // The test's turn to clean, taken before it plants its dead run: no
    // other clean (another test's, or a run's first step) can take that run.
    const auto turn = CleanTurn::wait();
    const std::string dead_run = "fsdead" + std::to_string(::getpid());
    const std::string live_run = "fslive" + std::to_string(::getpid());
    LeftoverDaemon killed(scratch(), dead_run, "n1");   // its daemon died with the run
    LeftoverDaemon serving(scratch(), dead_run, "n2");  // its daemon still serves
    LeftoverDaemon other(scratch(), live_run, "n1");    // a live run's: left alone
    killed.process->kill();
    ASSERT_TRUE(is_mount_point(killed.mountpoint)) << "a killed daemon's mount stays until someone unmounts it";
    {
        const auto lock = FileLock::try_lock(run_lock_path(dead_run));
    }  // its lock file stays behind, unlocked: a dead run
    auto live = std::make_optional<RunAliveLock>(live_run);

    const auto report = clean_dead_runs(turn);

    EXPECT_FALSE(is_mount_point(killed.mountpoint));
    EXPECT_FALSE(is_mount_point(serving.mountpoint));
    EXPECT_TRUE(is_mount_point(other.mountpoint)) << "clean unmounted a live run's filesystem";
    EXPECT_NE(std::find(report.dead_runs.begin(), report.dead_runs.end(), dead_run), report.dead_runs.end());
    for (const auto& mountpoint : {killed.mountpoint, serving.mountpoint})
        EXPECT_NE(std::find(report.removed.begin(), report.removed.end(), "mount " + mountpoint.string()),
                  report.removed.end())
            << "clean did not report unmounting " << mountpoint;
    for (const auto& entry : read_mount_table())
        EXPECT_EQ(entry.fsname.find(dead_run), std::string::npos) << entry.path << " is still mounted";
    EXPECT_TRUE(serving.process->wait_for_exit(5s)) << "the serving daemon did not exit after its unmount";
    other.process->close_stdin();  // the live run's daemon unmounts itself at EOF
    EXPECT_TRUE(other.process->wait_for_exit(5s));
    EXPECT_FALSE(is_mount_point(other.mountpoint));
    live.reset();  // removes its lock file: no run is left behind for the next `clean`
}

}  // namespace
}  // namespace lockcheck::testing
