// Where one node's server runs and how it is controlled: the operations every
// node lifecycle step and every fault maps onto (docs/design.md, "Node
// runtimes"). A runtime is chosen per run by the spec field `runtime`
// (clusters/runtimes/node_runtime_registry.hpp); `netns` runs the server as a process
// of this host inside the node's network namespace, `docker` in a container,
// `ssh` on a remote host.
//
// One runtime object per node, owned by its Node (clusters/node.hpp), which
// serialises the process operations (start, stop, kill, pause, resume,
// running, exit_status, pid). address, has_own_network, run_in_network,
// copy_in, rewrite_in_place and read_log do not touch the server process and may be called
// from any thread.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "clusters/runtimes/remote_host.hpp"

namespace lockcheck {

/// Why a runtime could not do what it was asked; the message gives the
/// reason without the node's name (Node adds it).
class NodeRuntimeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What runs as the node's server.
struct ServerLaunch {
    std::vector<std::string> argv;  ///< argv[0]: absolute path, or a name looked up in PATH
    std::vector<std::string> env;   ///< "NAME=value" entries added to the server's environment
    /// When set, the program that starts argv (`launcher -- argv...`), becoming
    /// it in the same process: the clock launcher (clusters/clock_offset.hpp).
    std::optional<std::filesystem::path> launcher = std::nullopt;
};

/// What a runtime executes for `launch`: its argv, behind its launcher if it has one.
std::vector<std::string> launch_command(const ServerLaunch& launch);

/// Where a node runs: what a runtime is made from.
struct NodePlacement {
    std::string name;                  ///< the node's name, e.g. "n1"
    std::string address;               ///< the address clients and peers reach it at
    std::optional<std::string> netns;  ///< its network namespace; nullopt: it shares the host's
    std::filesystem::path log;         ///< where the server's stdout and stderr go
    std::string run_id;                ///< the run the node belongs to
    /// Host paths the server reads or writes at the same path (its directory,
    /// the run's scratch directory, the clock library and launcher): a
    /// runtime that does not share this host's filesystem (docker) mounts them.
    std::vector<std::filesystem::path> shared_paths;
    std::string image;               ///< runtime docker: the image (empty: lockcheck's own)
    std::optional<RemoteHost> host;  ///< runtime ssh: the host it runs on (its address is `address`)
};

class NodeRuntime {
public:
    /// Kills the server when it still runs.
    virtual ~NodeRuntime() = default;

    /// The address clients and peers reach the node at.
    virtual const std::string& address() const = 0;

    /// Starts the server (killing one that still runs), its output going to
    /// the node's log. Returns once it is started, not once it is ready.
    /// Throws NodeRuntimeError when it cannot be started.
    virtual void start(const ServerLaunch& launch) = 0;
    /// False once the server has exited (or was never started).
    virtual bool running() = 0;
    /// The exit code, or 128+signal, once the server has exited.
    virtual std::optional<int> exit_status() = 0;
    /// Asks the server to end (SIGTERM), then kills it after at most `grace`.
    virtual void stop(std::chrono::milliseconds grace) = 0;
    /// Kills the server and everything it started at once: a crash.
    virtual void kill() = 0;
    /// Freezes the server (and everything it started) until resume().
    virtual void pause() = 0;
    virtual void resume() = 0;
    /// The server's PID on this host, or -1 when it does not run.
    virtual pid_t pid() const = 0;

    /// True when the node has a network namespace of its own, so that
    /// run_in_network can change its firewall without touching the host's.
    virtual bool has_own_network() const = 0;
    /// Runs `argv` to completion inside the node's network namespace and
    /// returns its output. Throws NodeRuntimeError without a namespace of its
    /// own, std::runtime_error (CommandError) when the command fails.
    virtual std::string run_in_network(const std::vector<std::string>& argv) const = 0;
    /// Copies the file `from` of this host to `to` as the node's server sees
    /// it, replacing what is there. Throws NodeRuntimeError.
    virtual void copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const = 0;
    /// Writes `bytes` (text) over the start of `file` as the node's server
    /// sees it, in one write at offset 0, never truncating it (creating it
    /// when missing): a reader of the same number of bytes sees either the
    /// old bytes or the new ones (the clock offset file). Throws NodeRuntimeError.
    virtual void rewrite_in_place(const std::filesystem::path& file, const std::string& bytes) const = 0;
    /// Everything the server wrote to stdout and stderr so far ("" when
    /// nothing or when the log cannot be read).
    virtual std::string read_log() const = 0;
};

/// copy_in of a runtime whose server sees this host's path `to` as it is:
/// copies `from` over `to`. Throws NodeRuntimeError naming both.
void copy_shared_file(const std::filesystem::path& from, const std::filesystem::path& to);

/// rewrite_in_place of a runtime whose server sees this host's `file` as it
/// is: one pwrite of `bytes` at offset 0. Throws NodeRuntimeError naming it.
void rewrite_shared_file(const std::filesystem::path& file, const std::string& bytes);

}  // namespace lockcheck
