#include "clusters/runtimes/ssh_runtime.hpp"

#include "host/system_command.hpp"
#include "clusters/servers/config_quoting.hpp"
#include "clusters/runtimes/ssh_run_record.hpp"

namespace lockcheck {
namespace {

/// How long a killed server's session may take to end before its ssh is killed
/// (which ends the session too: the wrapper kills the server at EOF).
constexpr auto kSessionEnd = std::chrono::seconds(5);

/// The server's wrapper: sh -c WRAPPER sh DIR PID_FILE LOG ARGV... Runs ARGV
/// in DIR (the controller's working directory: relative paths mean the same)
/// in a session of its own (PID file: its process group), output appended to
/// LOG; kills that group when its stdin (the controller's channel) ends;
/// exits with the server's status.
constexpr const char* kWrapper =
    "cd \"$1\" 2>/dev/null || cd /; pid_file=$2 log=$3; shift 3; rm -f \"$pid_file\"\n"
    "setsid sh -c 'echo $$ >\"$0\"; exec \"$@\"' \"$pid_file\" \"$@\" >>\"$log\" 2>&1 </dev/null &\n"
    "server=$!\n"
    "exec 3<&0\n"
    "{ cat >/dev/null; kill -s KILL -- -\"$server\"; kill -s KILL \"$server\"; } <&3 >/dev/null 2>&1 3<&- &\n"
    "watcher=$!\n"
    "exec 3<&-\n"
    "wait \"$server\"; status=$?\n"
    "kill \"$watcher\" 2>/dev/null\n"
    "exit \"$status\"\n";

}  // namespace

SshRuntime::SshRuntime(NodePlacement placement)
    : placement_(std::move(placement)),
      directory_(ssh_node_directory(placement_.run_id, placement_.name)),
      log_(std::filesystem::absolute(placement_.log).lexically_normal()),
      pid_file_(log_.parent_path() / "server.pid"),
      mirror_(placement_.shared_paths, {log_}, directory_ / "upload.tar") {
    try {
        if (!placement_.host) throw NodeRuntimeError("runtime ssh needs a host (flag --hosts)");
        record_ssh_node(directory_, *placement_.host, pid_file_);
        connection_ = std::make_unique<SshConnection>(*placement_.host, directory_, "master");
    } catch (...) {
        remove_ssh_node_directory(directory_);
        throw;
    }
}

SshRuntime::~SshRuntime() {
    kill();
    session_.reset();
    connection_.reset();
    remove_ssh_node_directory(directory_);
}

void SshRuntime::start(const ServerLaunch& launch) {
    kill();
    const std::string& binary = launch.argv.at(0);
    try {
        connection_->run("b=" + shell_quote(binary) +
                         "; case $b in */*) [ -f \"$b\" ] && [ -x \"$b\" ] ;; *) command -v \"$b\" >/dev/null ;; esac "
                         "|| { echo \"$b is not on this host (lockcheck installs nothing on hosts)\"; exit 1; }");
    } catch (const CommandError& e) {
        throw NodeRuntimeError(e.what());
    }
    mirror_.sync(*connection_);
    std::vector<std::string> wrapper{
        "sh", "-c", kWrapper, "sh", std::filesystem::current_path().string(), pid_file_.string(), log_.string()};
    if (!launch.env.empty()) wrapper.push_back("env");
    wrapper.insert(wrapper.end(), launch.env.begin(), launch.env.end());
    const auto command = launch_command(launch);
    wrapper.insert(wrapper.end(), command.begin(), command.end());
    try {
        session_ = std::make_unique<ChildProcess>(ChildSpec{
            connection_->argv(shell_command_line(wrapper)), std::nullopt, directory_ / "session.log", true, {}});
    } catch (const SpawnError& e) {
        throw NodeRuntimeError(e.what());
    }
}

bool SshRuntime::running() { return session_ && session_->running(); }

std::optional<int> SshRuntime::exit_status() { return session_ ? session_->exit_status() : std::nullopt; }

bool SshRuntime::signal_server(const std::string& signal) const {
    try {
        connection_->run(signal_server_group(pid_file_, signal));
        return true;
    } catch (const CommandError&) {
        return false;
    }
}

void SshRuntime::stop(std::chrono::milliseconds grace) {
    if (!running()) return;
    signal_server("CONT");
    signal_server("TERM");
    if (!session_->wait_for_exit(grace)) kill();
}

void SshRuntime::kill() {
    if (!running()) return;
    signal_server("KILL");
    if (!session_->wait_for_exit(kSessionEnd)) session_->kill();
}

void SshRuntime::pause() {
    if (running() && !signal_server("STOP"))
        throw NodeRuntimeError("cannot pause its server on " + describe(*placement_.host));
}

void SshRuntime::resume() {
    if (running() && !signal_server("CONT"))
        throw NodeRuntimeError("cannot resume its server on " + describe(*placement_.host));
}

std::string SshRuntime::run_in_network(const std::vector<std::string>& argv) const {
    mirror_.sync(*connection_);
    return connection_->run(shell_command_line(argv));
}

void SshRuntime::copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const {
    try {
        connection_->run("cat >" + shell_quote(to.string()), from);
    } catch (const CommandError& e) {
        throw NodeRuntimeError("cannot copy " + from.string() + " to " + to.string() + ": " + e.what());
    }
}

void SshRuntime::rewrite_in_place(const std::filesystem::path& file, const std::string& bytes) const {
    try {
        connection_->run("printf %s " + shell_quote(bytes) + " | dd of=" + shell_quote(file.string()) +
                         " bs=" + std::to_string(bytes.size()) + " count=1 iflag=fullblock conv=notrunc status=none");
    } catch (const CommandError& e) {
        throw NodeRuntimeError("cannot rewrite " + file.string() + ": " + e.what());
    }
}

std::string SshRuntime::read_log() const {
    try {
        return connection_->run("cat " + shell_quote(log_.string()));
    } catch (const CommandError&) {
        return "";
    }
}

}  // namespace lockcheck
