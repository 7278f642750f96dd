#include "clusters/runtimes/netns_runtime.hpp"

#include "host/system_command.hpp"

namespace lockcheck {

NetnsRuntime::NetnsRuntime(NodePlacement placement) : placement_(std::move(placement)) {}

void NetnsRuntime::start(const ServerLaunch& launch) {
    process_.reset();  // kills a server that still runs
    try {
        process_ = std::make_unique<ChildProcess>(
            ChildSpec{launch_command(launch), placement_.netns, placement_.log, false, launch.env});
    } catch (const SpawnError& e) {
        throw NodeRuntimeError(e.what());
    }
}

bool NetnsRuntime::running() { return process_ && process_->running(); }

std::optional<int> NetnsRuntime::exit_status() { return process_ ? process_->exit_status() : std::nullopt; }

void NetnsRuntime::stop(std::chrono::milliseconds grace) {
    if (process_) process_->stop(grace);
}

void NetnsRuntime::kill() {
    if (process_) process_->kill();
}

void NetnsRuntime::pause() {
    if (process_) process_->pause();
}

void NetnsRuntime::resume() {
    if (process_) process_->resume();
}

pid_t NetnsRuntime::pid() const { return process_ ? process_->pid() : -1; }

std::string NetnsRuntime::run_in_network(const std::vector<std::string>& argv) const {
    if (!placement_.netns) throw NodeRuntimeError("it has no network namespace of its own");
    std::vector<std::string> full{"ip", "netns", "exec", *placement_.netns};
    full.insert(full.end(), argv.begin(), argv.end());
    return run_checked(full);
}

void NetnsRuntime::copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const {
    copy_shared_file(from, to);
}

std::string NetnsRuntime::read_log() const { return log_text(placement_.log); }

}  // namespace lockcheck
