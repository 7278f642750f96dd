// One multiplexed OpenSSH connection to a host of runtime ssh
// (docs/decisions.md says why the `ssh` client binary, not libssh).
//
// The master is `ssh -M -N` started on lockcheck's spawn path (a ChildProcess:
// PR_SET_PDEATHSIG, the run's cgroup), its control socket and a known_hosts
// of the run's own in the run's private ssh directory; every command then
// runs as `ssh -S <socket>` through it, without a new login. Options: -F
// /dev/null (no user config), BatchMode=yes (never a password prompt),
// StrictHostKeyChecking=accept-new against the run's known_hosts,
// ConnectTimeout=5, ServerAliveInterval=5, IdentitiesOnly with the host's key.
// Remote commands are POSIX shell command lines run by `sh -c`, under
// `sudo -n` when the host says sudo. The master is killed (by its PID) when
// the connection is destroyed, and dies with the controller.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "host/child_process.hpp"
#include "clusters/runtimes/remote_host.hpp"

namespace lockcheck {

/// The argv of `ssh` running the shell command line `command` on `host`
/// (through the master at `control` when it is not empty), with the options
/// above; `directory` holds the run's known_hosts.
std::vector<std::string> ssh_argv(const RemoteHost& host, const std::filesystem::path& directory,
                                  const std::filesystem::path& control, const std::string& command);

class SshConnection {
public:
    /// Logs in to `host` once, as `name` ("n1": the control socket
    /// `directory`/n1.sock, the master's output `directory`/n1.ssh.log), and
    /// waits until the master answers. Throws NodeRuntimeError("cannot log in
    /// to root@10.77.1.1 port 22: <ssh's last line>").
    SshConnection(RemoteHost host, const std::filesystem::path& directory, const std::string& name);
    /// Kills the master.
    ~SshConnection();
    SshConnection(const SshConnection&) = delete;
    SshConnection& operator=(const SshConnection&) = delete;

    const RemoteHost& host() const { return host_; }
    /// The argv that runs `command` through the master: for a command that
    /// lasts (ChildSpec::argv), e.g. a server's session.
    std::vector<std::string> argv(const std::string& command) const;
    /// Runs `command` to completion, `input` (a local file; empty: nothing)
    /// its stdin, and returns its output. Throws CommandError("root@10.77.1.1
    /// port 22: <the last line it wrote>") when it exits non-zero.
    std::string run(const std::string& command, const std::filesystem::path& input = {}) const;

private:
    const RemoteHost host_;
    const std::filesystem::path directory_;
    const std::filesystem::path control_;
    std::unique_ptr<ChildProcess> master_;
};

}  // namespace lockcheck
