#include "tests/support/ssh_test_hosts.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "host/system_command.hpp"
#include "run/run_directory.hpp"
#include "run/run_liveness.hpp"

namespace fs = std::filesystem;

namespace lockcheck::testing {
namespace {

/// Mounts an empty tmpfs over each hidden directory ("$@") and the empty file
/// $2 over root's ~/.bashrc (a host of its own has its own; this machine's
/// takes seconds, and bash reads it for every ssh command), then becomes sshd
/// with the config $1.
constexpr const char* kHostScript =
    "config=$1 empty=$2; shift 2\n"
    "[ ! -f /root/.bashrc ] || mount --bind \"$empty\" /root/.bashrc || exit 1\n"
    "for dir in \"$@\"; do mkdir -p \"$dir\" && mount -t tmpfs -o mode=0755 lockcheck-ssh-host \"$dir\" || exit 1; "
    "done\n"
    "[ -d /run/sshd ] || mkdir -m 0755 /run/sshd\n"
    "exec /usr/sbin/sshd -D -e -f \"$config\"\n";

/// True once something accepts TCP connections at address:22.
bool accepts(const std::string& address) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(22);
    ::inet_pton(AF_INET, address.c_str(), &to.sin_addr);
    const bool connected = ::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0;
    ::close(fd);
    return connected;
}

void write_text(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

SshTestHosts::SshTestHosts(int count, std::vector<fs::path> hidden) {
    std::string pattern = (fs::temp_directory_path() / "lockcheck-ssh-hosts-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern + " failed");
    directory_ = pattern;
    try {
        for (const char* key : {"client_key", "refused_key", "host_key"})
            run_checked({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "lockcheck-test", "-f",
                         (directory_ / key).string()});
        fs::copy_file(directory_ / "client_key.pub", directory_ / "authorized_keys");
        write_text(directory_ / "empty", "");
        // A run id like a run's (6 hex digits), so `lockcheck clean` finds its network if the test dies.
        const std::string run_id = new_run_id();
        alive_ = std::make_unique<RunAliveLock>(run_id);
        network_ = std::make_unique<TestNetwork>(run_id, count, NetworkMode::Namespaces);
        for (int host = 0; host < count; ++host) {
            const auto config = directory_ / ("sshd_config." + std::to_string(host + 1));
            write_text(config, "ListenAddress " + network_->address(host) + ":22\nHostKey " +
                                   (directory_ / "host_key").string() + "\nAuthorizedKeysFile " +
                                   (directory_ / "authorized_keys").string() +
                                   "\nPidFile none\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                                   "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
                                   "MaxSessions 100\nMaxStartups 100\nLogLevel VERBOSE\n");
            std::vector<std::string> argv{"unshare",
                                          "--mount",
                                          "--propagation",
                                          "private",
                                          "sh",
                                          "-c",
                                          kHostScript,
                                          "sh",
                                          config.string(),
                                          (directory_ / "empty").string()};
            for (const auto& dir : hidden) argv.push_back(fs::absolute(dir).string());
            sshds_.push_back(std::make_unique<ChildProcess>(
                ChildSpec{argv, network_->netns(host), directory_ / ("sshd." + std::to_string(host + 1) + ".log")}));
        }
        for (int host = 0; host < count; ++host) {
            int tries = 0;
            while (!accepts(address(host)) && sshds_[host]->running() && ++tries < 200)
                std::this_thread::sleep_for(std::chrono::milliseconds(25));
            if (!accepts(address(host)))
                throw std::runtime_error("sshd of host " + address(host) + " did not start: " +
                                         last_log_line(directory_ / ("sshd." + std::to_string(host + 1) + ".log")));
        }
    } catch (...) {
        sshds_.clear();
        network_.reset();
        alive_.reset();
        fs::remove_all(directory_);
        throw;
    }
}

SshTestHosts::~SshTestHosts() {
    // Whatever the logins left is killed first (by PID), then the sshds, then the network.
    for (int host = 0; host < count(); ++host)
        for (const pid_t pid : processes_started_by_ssh(host)) ::kill(pid, SIGKILL);
    processes_left(std::chrono::seconds(5));  // gone, not just signalled
    sshds_.clear();
    network_.reset();
    alive_.reset();
    std::error_code ec;
    fs::remove_all(directory_, ec);
}

std::string SshTestHosts::unreachable_address() const {
    const std::string& first = address(0);
    return first.substr(0, first.rfind('.')) + ".200";
}

nlohmann::json SshTestHosts::hosts() const {
    auto hosts = nlohmann::json::array();
    for (int host = 0; host < count(); ++host)
        hosts.push_back({{"address", address(host)}, {"user", "root"}, {"key", key().string()}, {"port", 22}});
    return hosts;
}

fs::path SshTestHosts::write_hosts_file(const fs::path& path, const nlohmann::json& hosts) {
    write_text(path, hosts.dump(2));
    return path;
}

void SshTestHosts::hide_file(int host, const fs::path& path) const {
    run_checked({"nsenter", "-t", std::to_string(sshds_.at(host)->pid()), "-m", "mount", "--bind",
                 (directory_ / "empty").string(), path.string()});
}

bool SshTestHosts::sees(int host, const fs::path& path) const {
    return run_command({"nsenter", "-t", std::to_string(sshds_.at(host)->pid()), "-m", "test", "-e", path.string()})
               .exit_code == 0;
}

std::vector<pid_t> SshTestHosts::processes_started_by_ssh(int host) const {
    std::vector<pid_t> pids;
    const auto listed = run_command({"ip", "netns", "pids", *network_->netns(host)});
    std::istringstream lines(listed.output);
    for (pid_t pid = 0; lines >> pid;)
        if (pid != sshds_.at(host)->pid()) pids.push_back(pid);
    return pids;
}

std::vector<pid_t> SshTestHosts::processes_left(std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        std::vector<pid_t> left;
        for (int host = 0; host < count(); ++host)
            for (const pid_t pid : processes_started_by_ssh(host)) left.push_back(pid);
        if (left.empty() || std::chrono::steady_clock::now() >= deadline) return left;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

}  // namespace lockcheck::testing
