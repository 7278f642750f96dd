// Real sshd "hosts" for the tests of runtime ssh (clusters/runtimes/ssh_runtime.hpp):
// one network namespace each, on a test network of the project's own
// (clusters/network/test_network.hpp, namespace mode, addresses 10.77.S.N reachable
// from the controller), each running Debian's /usr/sbin/sshd (package
// openssh-server) with a host key, an authorized key pair generated for this
// fixture (ssh-keygen) and a config in a private temporary directory; no
// system sshd is used or touched.
//
// Each sshd runs in a mount namespace of its own where every `hidden`
// directory is an empty tmpfs: a host does not share the controller's view
// of the run's files, so whatever a server needs must have been uploaded.
// Root's ~/.bashrc is empty there (bash reads it for every command over ssh).
// Everything (sshds and what they started, namespaces, keys) is removed when
// the fixture is destroyed. Needs root.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/child_process.hpp"
#include "clusters/network/test_network.hpp"

namespace lockcheck {
class RunAliveLock;
}

namespace lockcheck::testing {

class SshTestHosts {
public:
    /// Starts `count` hosts; throws std::runtime_error when one cannot be started.
    SshTestHosts(int count, std::vector<std::filesystem::path> hidden);
    ~SshTestHosts();
    SshTestHosts(const SshTestHosts&) = delete;
    SshTestHosts& operator=(const SshTestHosts&) = delete;

    int count() const { return static_cast<int>(sshds_.size()); }
    const std::string& address(int host) const { return network_->address(host); }
    /// An address on the hosts' network where nothing answers.
    std::string unreachable_address() const;
    /// The private key every host accepts (root's login).
    std::filesystem::path key() const { return directory_ / "client_key"; }
    /// A private key no host accepts.
    std::filesystem::path refused_key() const { return directory_ / "refused_key"; }
    /// The hosts as a hosts file's JSON (user root, the key, port 22).
    nlohmann::json hosts() const;
    /// Writes `hosts` to `path` and returns `path`.
    static std::filesystem::path write_hosts_file(const std::filesystem::path& path, const nlohmann::json& hosts);
    /// Makes `path` (a file) absent from host `host`'s view: an empty file
    /// that is not executable is bind-mounted over it there.
    void hide_file(int host, const std::filesystem::path& path) const;
    /// Whether host `host` sees `path` (in its own mount namespace).
    bool sees(int host, const std::filesystem::path& path) const;
    /// Every process in host `host`'s network namespace but its sshd: what
    /// logins started there (sessions, servers).
    std::vector<pid_t> processes_started_by_ssh(int host) const;
    /// processes_started_by_ssh of every host, waiting up to `timeout` for
    /// them to be gone (sshd's session processes end a moment after a login).
    std::vector<pid_t> processes_left(std::chrono::milliseconds timeout) const;

private:
    std::filesystem::path directory_;
    std::unique_ptr<RunAliveLock> alive_;  ///< keeps lockcheck's clean off the hosts' network
    std::unique_ptr<TestNetwork> network_;
    std::vector<std::unique_ptr<ChildProcess>> sshds_;
};

}  // namespace lockcheck::testing
