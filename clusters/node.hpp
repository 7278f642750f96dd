// One database server node: its runtime (where its server runs and how it is
// controlled: clusters/runtimes/node_runtime.hpp), directory, program and data mount.
//
// Lifecycle: start (the runtime starts the server, then a readiness probe),
// stop, kill, pause, resume, and with a data mount lose_power. The node's
// config and log live in its own directory under the run directory.
// Thread-safe.
//
// A node built with a data mount (clusters/node_data_mount.hpp: the run asked
// for the lose-unsynced filesystem) keeps its server's data directory on it:
// start() mounts it before spawning the server, stop() unmounts it after the
// server has exited, kill() (a process crash) leaves it mounted, since a
// crashed process loses nothing the kernel holds, and lose_power() is the
// crash that loses what was never synced.
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

#include "clusters/data_file.hpp"
#include "clusters/node_data_mount.hpp"
#include "clusters/runtimes/node_runtime.hpp"

namespace lockcheck {

/// How to run one node's server. The program writes its own config files
/// before the node starts it.
struct NodeProgram {
    std::vector<std::string> argv;
    /// True once the server answers at `address`; called repeatedly until ready.
    std::function<bool(const std::string& address)> ready;
    /// The directory the server keeps its data in: what a power loss can
    /// take from (the lose-unsynced filesystem is mounted over it). Empty for
    /// a server that keeps no data (a Redis Sentinel).
    std::filesystem::path data_dir = {};
    /// When the server's directory changes become durable on that filesystem
    /// ("dir-fsync": after an fsync of the directory; "any-fsync": after any
    /// fsync, as on ext4), chosen by what the server relies on (docs/nemesis.md).
    std::string metadata_rule = "dir-fsync";
    /// The program that starts argv, if any (ServerLaunch::launcher): the
    /// clock launcher when the run moves the nodes' clocks.
    std::optional<std::filesystem::path> launcher = std::nullopt;
    /// The files the server keeps in data_dir, as corrupt-file aims at them
    /// (clusters/servers/server_data_files.hpp); empty for a server that keeps none.
    std::vector<DataFile> data_files = {};
};

class NodeStartError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Node {
public:
    /// `runtime`: where the server runs (never nullptr).
    /// `env`: "NAME=value" entries for the server's environment (ServerLaunch::env).
    /// `interrupt`: a stop requested on it ends a wait for readiness (Ctrl-C).
    /// `data`: the lose-unsynced filesystem for program.data_dir, or nullptr.
    Node(std::string name, std::unique_ptr<NodeRuntime> runtime, std::filesystem::path dir, NodeProgram program,
         std::vector<std::string> env = {}, std::stop_token interrupt = {},
         std::unique_ptr<NodeDataMount> data = nullptr);
    /// Kills the server, then unmounts its data directory.
    ~Node();

    const std::string& name() const { return name_; }
    const std::string& address() const { return runtime_->address(); }
    const std::filesystem::path& dir() const { return dir_; }
    /// Where a node in `dir` keeps its server's log (NodePlacement::log).
    static std::filesystem::path log_path(const std::filesystem::path& dir) { return dir / "server.log"; }

    /// True when the node has a network namespace of its own (NodeRuntime::has_own_network).
    bool has_own_network() const { return runtime_->has_own_network(); }
    /// Runs `argv` inside the node's network namespace and returns its
    /// output. Throws std::runtime_error naming the node without a namespace
    /// of its own, or the command's CommandError when it fails.
    std::string run_in_network(const std::vector<std::string>& argv) const;
    /// Copies the host's file `from` to `to` as the server sees it. Throws
    /// std::runtime_error naming the node.
    void copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const;
    /// Writes `bytes` over the start of `file` as the server sees it, in one
    /// write, never truncating it (NodeRuntime::rewrite_in_place). Throws
    /// std::runtime_error naming the node.
    void rewrite_in_place(const std::filesystem::path& file, const std::string& bytes) const;
    /// The directory the server keeps its data in (NodeProgram::data_dir), as this host sees it.
    const std::filesystem::path& data_dir() const { return program_.data_dir; }
    /// The files the server keeps there (NodeProgram::data_files).
    const std::vector<DataFile>& data_files() const { return program_.data_files; }
    /// Everything the server wrote to its log so far.
    std::string read_log() const { return runtime_->read_log(); }

    /// Mounts the data directory (with a data mount), spawns the server and
    /// waits until its probe succeeds. Throws NodeStartError naming the node,
    /// the reason and the log's last line, or saying it was interrupted (the
    /// server is killed then), or why its filesystem could not be mounted.
    void start(std::chrono::milliseconds ready_timeout = std::chrono::seconds(15));
    /// SIGTERM, then SIGKILL after `grace`; then unmounts the data directory.
    void stop(std::chrono::milliseconds grace = std::chrono::seconds(3));
    /// SIGKILL, then unmounts the data directory: the teardown of servers
    /// whose clean shutdown is slow and whose data needs none.
    void stop_at_once();
    /// SIGKILL: a process crash. The data directory stays mounted.
    void kill();
    /// True when the node keeps its data on the lose-unsynced filesystem,
    /// so lose_power() can strike it.
    bool can_lose_power() const { return data_ != nullptr; }
    /// A power loss: SIGKILLs the server (and everything it started) and
    /// reaps it, then throws away every write and directory change it never
    /// synced (but what `tear` keeps of its unsynced writes:
    /// unsyncedfs/torn_write.hpp) and mounts the filesystem afresh. The node stays down until
    /// start(). Throws std::logic_error without a data mount, UnsyncedFsError
    /// when the filesystem fails (its mount is down then, and start() fails).
    PowerLossSummary lose_power(const unsyncedfs::Tear& tear = {});
    /// A disk that fails while the server runs: its data filesystem answers
    /// file syncs and writes with `errors` until called again with
    /// DiskErrors{} (NodeDataMount::set_disk_errors). The server keeps
    /// running (or exits, as it chooses). Throws std::logic_error without a
    /// data mount, UnsyncedFsError when the filesystem fails.
    void set_disk_errors(const unsyncedfs::DiskErrors& errors);
    /// With a data mount, makes everything the server wrote so far durable
    /// (NodeDataMount::write_back); nothing without one. Throws UnsyncedFsError.
    void make_data_durable();
    /// Why the node's filesystem failed (its daemon died or hung), once it did.
    std::optional<std::string> data_failure() const;
    void pause();
    void resume();
    bool paused() const;
    bool running();
    /// PID of the running server, or -1.
    pid_t pid() const;

private:
    std::string name_;
    std::filesystem::path dir_;
    NodeProgram program_;
    std::vector<std::string> env_;
    std::stop_token interrupt_;
    mutable std::mutex mutex_;
    std::unique_ptr<NodeDataMount> data_;  ///< destroyed after runtime_: the server dies before its mount goes
    std::unique_ptr<NodeRuntime> runtime_;
    bool paused_ = false;

    std::string last_log_line() const;
};

/// The nodes a topology owns, as the Node* its interface hands out.
std::vector<Node*> node_pointers(const std::vector<std::unique_ptr<Node>>& nodes);

/// "address:port" of each node, in order (optionally after `prefix`).
std::vector<std::string> node_endpoints(const std::vector<std::unique_ptr<Node>>& nodes, int port,
                                        const std::string& prefix = "");

}  // namespace lockcheck
