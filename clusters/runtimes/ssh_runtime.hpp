// Node runtime `ssh` (Jepsen's model): the node's server runs on a remote
// host of the hosts file (clusters/runtimes/remote_host.hpp), controlled over one
// multiplexed OpenSSH connection (clusters/runtimes/ssh_connection.hpp). lockcheck
// installs nothing there:
//
//   - start: checks that the server binary is there (an executable file at
//     its absolute path, or `command -v` of a name), uploads
//     the node's directory, the run's scratch directory and the clock library
//     at the same absolute paths (clusters/runtimes/remote_mirror.hpp; the log is
//     the host's own), then runs the server in a session of its own under a
//     /bin/sh wrapper that records its PID (the process group's) next to
//     the log, appends its output to the log, and waits on its stdin, which
//     is the controller's ssh channel: at EOF (the controller or its ssh is
//     gone, even after kill -9) it kills the server's process group. The
//     session's exit status is the server's.
//   - pause/resume: SIGSTOP/SIGCONT to the remote process group; kill:
//     SIGKILL; stop: SIGTERM, then SIGKILL after the grace.
//   - run_in_network: the command on the host (iptables there: the host's
//     own firewall), after uploading what changed (the firewall rules);
//     read_log: the remote log; copy_in: the file to the host's path.
//   - rewrite_in_place (the clock-skew fault's offset file): one command
//     `printf %s BYTES | dd of=FILE bs=N count=1 iflag=fullblock conv=notrunc`
//     on the host, so its one write at offset 0 never truncates the file
//     the clock library (uploaded with the node's directory) reads there.
//   - pid(): -1, as no PID of this host is the server's (nothing calls it to
//     reach the server; the lose-unsynced filesystem, which needs this
//     host's view of the node, is refused by the descriptor).
// What `lockcheck clean` needs after kill -9 is recorded under the state
// directory (clusters/runtimes/ssh_run_record.hpp).
#pragma once

#include <memory>

#include "host/child_process.hpp"
#include "clusters/runtimes/node_runtime.hpp"
#include "clusters/runtimes/remote_mirror.hpp"
#include "clusters/runtimes/ssh_connection.hpp"

namespace lockcheck {

class SshRuntime final : public NodeRuntime {
public:
    /// Logs in to placement.host (which must be set) and records the node
    /// for `lockcheck clean`. Throws NodeRuntimeError when it cannot log in.
    explicit SshRuntime(NodePlacement placement);
    /// Kills the server, ends the connection, removes the node's record.
    ~SshRuntime() override;

    const std::string& address() const override { return placement_.address; }
    void start(const ServerLaunch& launch) override;
    bool running() override;
    std::optional<int> exit_status() override;
    void stop(std::chrono::milliseconds grace) override;
    void kill() override;
    void pause() override;
    void resume() override;
    pid_t pid() const override { return -1; }
    bool has_own_network() const override { return true; }
    std::string run_in_network(const std::vector<std::string>& argv) const override;
    void copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const override;
    void rewrite_in_place(const std::filesystem::path& file, const std::string& bytes) const override;
    std::string read_log() const override;

private:
    const NodePlacement placement_;
    const std::filesystem::path directory_;  ///< on this host: clusters/runtimes/ssh_run_record.hpp
    const std::filesystem::path log_;        ///< absolute: the same path on the host
    const std::filesystem::path pid_file_;   ///< on the host, beside the log
    std::unique_ptr<SshConnection> connection_;
    mutable RemoteMirror mirror_;
    std::unique_ptr<ChildProcess> session_;  ///< the ssh session of the server's wrapper, once started

    /// Sends `signal` to the server's process group; false when there is none.
    bool signal_server(const std::string& signal) const;
};

}  // namespace lockcheck
