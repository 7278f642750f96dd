#include "clusters/runtimes/ssh_connection.hpp"

#include "host/system_command.hpp"
#include "clusters/servers/config_quoting.hpp"
#include "clusters/runtimes/node_runtime.hpp"
#include "core/interruptible_sleep.hpp"

namespace lockcheck {
namespace {

constexpr auto kLoginTimeout = std::chrono::seconds(10);  ///< ConnectTimeout (5 s) and the login

/// The options every ssh of lockcheck passes (before the destination).
std::vector<std::string> ssh_options(const RemoteHost& host, const std::filesystem::path& directory) {
    return {"ssh",
            "-F",
            "/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=accept-new",
            "-o",
            "UserKnownHostsFile=" + (directory / "known_hosts").string(),
            "-o",
            "ConnectTimeout=5",
            "-o",
            "ServerAliveInterval=5",
            "-o",
            "LogLevel=ERROR",
            "-o",
            "IdentitiesOnly=yes",
            "-i",
            host.key.string(),
            "-p",
            std::to_string(host.port),
            "-l",
            host.user};
}

}  // namespace

std::vector<std::string> ssh_argv(const RemoteHost& host, const std::filesystem::path& directory,
                                  const std::filesystem::path& control, const std::string& command) {
    auto argv = ssh_options(host, directory);
    if (!control.empty()) argv.insert(argv.end(), {"-o", "ControlMaster=no", "-S", control.string()});
    // "--" before the destination: nothing after it is an option of ssh's, whatever the address says.
    argv.insert(argv.end(), {"--", host.address, (host.sudo ? "sudo -n sh -c " : "sh -c ") + shell_quote(command)});
    return argv;
}

SshConnection::SshConnection(RemoteHost host, const std::filesystem::path& directory, const std::string& name)
    : host_(std::move(host)), directory_(directory), control_(directory / (name + ".sock")) {
    auto master = ssh_options(host_, directory_);
    master.insert(master.end(), {"-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-S", control_.string(), "-N",
                                 "--", host_.address});
    const auto log = directory_ / (name + ".ssh.log");
    try {
        master_ = std::make_unique<ChildProcess>(ChildSpec{master, std::nullopt, log, false, {}});
    } catch (const SpawnError& e) {
        throw NodeRuntimeError("cannot start ssh: " + std::string(e.what()));
    }
    auto check = ssh_options(host_, directory_);
    check.insert(check.end(), {"-S", control_.string(), "-O", "check", "--", host_.address});
    const bool up = poll_until([&] { return !master_->running() || run_command(check).exit_code == 0; }, kLoginTimeout,
                               std::chrono::milliseconds(50), {});
    if (up && master_->running()) return;
    master_->kill();
    throw NodeRuntimeError(
        "cannot log in to " + describe(host_) + ": " +
        (up ? last_log_line(log) : "no answer within " + std::to_string(kLoginTimeout.count()) + " s"));
}

SshConnection::~SshConnection() = default;  // the ChildProcess kills the master by its PID

std::vector<std::string> SshConnection::argv(const std::string& command) const {
    return ssh_argv(host_, directory_, control_, command);
}

std::string SshConnection::run(const std::string& command, const std::filesystem::path& input) const {
    const auto result = run_command(argv(command), input);
    if (result.exit_code != 0) {
        const auto line = last_nonblank_line(result.output);
        throw CommandError(
            describe(host_) + ": " +
            (result.output.empty() ? "`" + command + "` exited " + std::to_string(result.exit_code) : line));
    }
    return result.output;
}

}  // namespace lockcheck
