// One database server node: its process, address, namespace, directory and log.
//
// Lifecycle: start (spawn + readiness probe), stop, kill, pause (SIGSTOP),
// resume (SIGCONT). The node's config and log live in its own directory under
// the run directory. Thread-safe.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "clusters/child_process.hpp"

namespace lockcheck {

/// How to run one node's server. The program writes its own config files
/// before the node starts it.
struct NodeProgram {
    std::vector<std::string> argv;
    /// True once the server answers at `address`; called repeatedly until ready.
    std::function<bool(const std::string& address)> ready;
};

class NodeStartError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Node {
public:
    /// `env`: "NAME=value" entries for the server's environment (ChildSpec::env).
    /// `interrupt`: a stop requested on it ends a wait for readiness (Ctrl-C).
    Node(std::string name, std::string address, std::optional<std::string> netns, std::filesystem::path dir,
         NodeProgram program, std::vector<std::string> env = {}, std::stop_token interrupt = {});
    ~Node();

    const std::string& name() const { return name_; }
    const std::string& address() const { return address_; }
    const std::optional<std::string>& netns() const { return netns_; }
    const std::filesystem::path& dir() const { return dir_; }
    std::filesystem::path log_path() const { return dir_ / "server.log"; }

    /// Spawns the server and waits until its probe succeeds. Throws
    /// NodeStartError naming the node, the reason and the log's last line,
    /// or saying it was interrupted (the server is killed then).
    void start(std::chrono::milliseconds ready_timeout = std::chrono::seconds(15));
    /// SIGTERM, then SIGKILL after `grace`.
    void stop(std::chrono::milliseconds grace = std::chrono::seconds(3));
    /// SIGKILL: a crash.
    void kill();
    void pause();
    void resume();
    bool paused() const;
    bool running();
    /// PID of the running server, or -1.
    pid_t pid() const;

private:
    std::string name_;
    std::string address_;
    std::optional<std::string> netns_;
    std::filesystem::path dir_;
    NodeProgram program_;
    std::vector<std::string> env_;
    std::stop_token interrupt_;
    mutable std::mutex mutex_;
    std::unique_ptr<ChildProcess> process_;
    bool paused_ = false;

    std::string last_log_line() const;
};

/// The nodes a topology owns, as the Node* its interface hands out.
std::vector<Node*> node_pointers(const std::vector<std::unique_ptr<Node>>& nodes);

/// "address:port" of each node, in order (optionally after `prefix`).
std::vector<std::string> node_endpoints(const std::vector<std::unique_ptr<Node>>& nodes, int port,
                                        const std::string& prefix = "");

}  // namespace lockcheck
