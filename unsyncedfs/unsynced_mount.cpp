#include "unsyncedfs/unsynced_mount.hpp"

#include <sys/mount.h>

#include <condition_variable>
#include <cstdio>
#include <future>
#include <thread>

#include "host/child_process.hpp"
#include "host/line_channel.hpp"
#include "unsyncedfs/mounts.hpp"

namespace lockcheck {

/// One daemon process, its control channel and the thread that spawned it and watches it.
struct UnsyncedMount::Daemon {
    std::unique_ptr<ChildProcess> process;
    std::unique_ptr<LineChannel> channel;
    std::thread watcher;
    std::mutex mutex;
    std::condition_variable wake;
    bool armed = false;     ///< mounted: a death from now on is a failure
    bool stopping = false;  ///< an unmount is under way: the daemon's exit is expected
};

namespace {

constexpr auto kWatchInterval = std::chrono::milliseconds(20);

std::string milliseconds(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

}  // namespace

UnsyncedMount::UnsyncedMount(UnsyncedMountOptions options) : options_(std::move(options)) {
    options_.mountpoint = mount_table_path(options_.mountpoint);
    std::lock_guard lock(mutex_);
    mount_locked();
}

UnsyncedMount::~UnsyncedMount() {
    try {
        unmount();
    } catch (...) {}
}

void UnsyncedMount::record_failure(const std::string& message) {
    std::lock_guard lock(failure_mutex_);
    if (!failure_) failure_ = message;
}

std::optional<std::string> UnsyncedMount::failure() const {
    std::lock_guard lock(failure_mutex_);
    return failure_;
}

pid_t UnsyncedMount::daemon_pid() const {
    std::lock_guard lock(mutex_);
    return daemon_ && daemon_->process && daemon_->process->running() ? daemon_->process->pid() : -1;
}

void UnsyncedMount::watch(Daemon& daemon, std::function<void()> spawned) {
    std::vector<std::string> argv{options_.daemon.string(),
                                  "--backing",
                                  options_.backing.string(),
                                  "--mountpoint",
                                  options_.mountpoint.string(),
                                  "--fsname",
                                  options_.fsname,
                                  "--metadata",
                                  options_.metadata};
    if (!options_.attic.empty()) argv.insert(argv.end(), {"--attic", options_.attic.string()});
    try {
        daemon.process = std::make_unique<ChildProcess>(ChildSpec{argv, std::nullopt, options_.log, true});
    } catch (const SpawnError&) {
        spawned();  // the mounting thread finds no process and reports it
        return;
    }
    spawned();
    // Runs until the daemon has exited: this thread's end would SIGKILL it (PDEATHSIG).
    std::unique_lock lock(daemon.mutex);
    for (;;) {
        if (!daemon.process->running()) {
            if (!daemon.armed || daemon.stopping) return;  // expected, or mount_locked() reports it
            lock.unlock();
            ::umount2(options_.mountpoint.c_str(), MNT_DETACH);
            const std::string message = "the lose-unsynced filesystem on " + options_.mountpoint.string() +
                                        " died (exit status " +
                                        std::to_string(daemon.process->exit_status().value_or(-1)) +
                                        "; its log says: " + last_log_line(options_.log) + "); it was unmounted";
            record_failure(message);
            if (options_.on_failure) options_.on_failure(message);
            return;
        }
        daemon.wake.wait_for(lock, kWatchInterval);
    }
}

void UnsyncedMount::mount_locked() {
    if (const auto reason = failure()) throw UnsyncedFsError(*reason);
    if (is_mount_point(options_.mountpoint))
        throw UnsyncedFsError(options_.mountpoint.string() +
                              " is a mount point already (left by a dead run? `lockcheck clean` unmounts those)");
    std::error_code ec;
    std::filesystem::create_directories(options_.mountpoint, ec);
    auto daemon = std::make_unique<Daemon>();
    std::promise<void> spawned;
    daemon->watcher =
        std::thread([this, &daemon = *daemon, &spawned] { watch(daemon, [&spawned] { spawned.set_value(); }); });
    spawned.get_future().wait();
    const auto give_up = [&](const std::string& why) {
        if (daemon->process) daemon->process->kill();
        daemon->watcher.join();
        ::umount2(options_.mountpoint.c_str(), MNT_DETACH);
        return UnsyncedFsError("cannot mount the lose-unsynced filesystem on " + options_.mountpoint.string() + ": " +
                               why + "; its log says: " + last_log_line(options_.log));
    };
    if (!daemon->process) throw give_up("cannot start " + options_.daemon.string());
    daemon->channel = std::make_unique<LineChannel>(daemon->process->stdout_fd(), daemon->process->stdin_fd());
    std::string line;
    const auto status = daemon->channel->read_line(line, std::chrono::steady_clock::now() + options_.timeout);
    if (status == LineChannel::ReadStatus::Timeout)
        throw give_up("not mounted after " + milliseconds(options_.timeout));
    if (status != LineChannel::ReadStatus::Line || line != "ready") throw give_up("the daemon exited");
    {
        std::lock_guard daemon_lock(daemon->mutex);
        daemon->armed = true;
    }
    daemon_ = std::move(daemon);
}

void UnsyncedMount::unmount_locked() {
    if (!daemon_) return;
    {
        std::lock_guard daemon_lock(daemon_->mutex);
        daemon_->stopping = true;
    }
    daemon_->wake.notify_all();
    unmount_path(options_.mountpoint);  // EINVAL when the daemon died and the watcher detached it
    daemon_->process->close_stdin();
    if (!daemon_->process->wait_for_exit(options_.timeout)) daemon_->process->kill();
    daemon_->watcher.join();
    daemon_.reset();
}

void UnsyncedMount::unmount() {
    std::lock_guard lock(mutex_);
    unmount_locked();
}

void UnsyncedMount::abandon_locked(const std::string& message) {
    if (daemon_) {
        {
            std::lock_guard daemon_lock(daemon_->mutex);
            daemon_->stopping = true;
        }
        daemon_->wake.notify_all();
        daemon_->process->kill();
        ::umount2(options_.mountpoint.c_str(), MNT_DETACH);
        daemon_->watcher.join();
        daemon_.reset();
    }
    record_failure(message);
    throw UnsyncedFsError(message);
}

std::string UnsyncedMount::command_locked(const std::string& command) {
    if (const auto reason = failure()) throw UnsyncedFsError(*reason);
    if (!daemon_)
        throw UnsyncedFsError("the lose-unsynced filesystem on " + options_.mountpoint.string() + " is not mounted");
    const std::string what = "the lose-unsynced filesystem on " + options_.mountpoint.string();
    std::string reply;
    if (!daemon_->channel->write_line(command)) abandon_locked(what + " died before `" + command + "`");
    switch (daemon_->channel->read_line(reply, std::chrono::steady_clock::now() + options_.timeout)) {
        case LineChannel::ReadStatus::Line: break;
        case LineChannel::ReadStatus::Timeout:
            abandon_locked(what + " did not answer `" + command + "` within " + milliseconds(options_.timeout) +
                           "; its daemon was killed and the mount detached");
        default: abandon_locked(what + " died during `" + command + "`; its log says: " + last_log_line(options_.log));
    }
    if (reply.rfind("ok ", 0) != 0) throw UnsyncedFsError(what + " refused `" + command + "`: " + reply);
    return reply;
}

std::string UnsyncedMount::status() {
    std::lock_guard lock(mutex_);
    return command_locked("status");
}

void UnsyncedMount::set_disk_errors(const unsyncedfs::DiskErrors& errors) {
    std::lock_guard lock(mutex_);
    command_locked("disk-error " + unsyncedfs::disk_errors_arguments(errors));
}

PowerLossSummary UnsyncedMount::power_loss(const unsyncedfs::Tear& tear) {
    std::lock_guard lock(mutex_);
    const std::string arguments = unsyncedfs::tear_arguments(tear);
    const std::string reply = command_locked(arguments.empty() ? "power-loss" : "power-loss " + arguments);
    PowerLossSummary summary;
    std::size_t failures = 0;
    if (std::sscanf(reply.c_str(), "ok power-loss files-restored=%zu files-torn=%zu changes-undone=%zu failures=%zu",
                    &summary.files_restored, &summary.files_torn, &summary.changes_undone, &failures) != 4)
        throw UnsyncedFsError("unexpected answer to `power-loss`: " + reply);
    unmount_locked();
    if (failures > 0) {
        const std::string message = "the lose-unsynced filesystem on " + options_.mountpoint.string() +
                                    " could not undo " + std::to_string(failures) + " change(s); see " +
                                    options_.log.string();
        record_failure(message);
        throw UnsyncedFsError(message);
    }
    mount_locked();
    return summary;
}

}  // namespace lockcheck
