// What a run of runtime ssh keeps on this host, per node, in
// STATE_DIR/runs/<run id>.ssh/<node>/ (private, mode 0700): the master's
// control socket and output, the run's known_hosts, and record.json (the
// host and the path of the server's PID file there), by which `lockcheck
// clean` logs in after the controller died and kills what is left.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "clusters/runtimes/remote_host.hpp"

namespace lockcheck {

/// The shell command that sends `signal` ("KILL") to the process group whose
/// leader's PID is in `pid_file` on the host (the server and what it
/// started); it fails when there is none.
std::string signal_server_group(const std::filesystem::path& pid_file, const std::string& signal);

/// STATE_DIR/runs/<run_id>.ssh/<node>, created private. Throws
/// StateDirectoryError or std::filesystem::filesystem_error.
std::filesystem::path ssh_node_directory(const std::string& run_id, const std::string& node);

/// Writes `directory`/record.json: `host` and `pid_file` (on the host).
/// Throws std::runtime_error when it cannot be written.
void record_ssh_node(const std::filesystem::path& directory, const RemoteHost& host,
                     const std::filesystem::path& pid_file);

/// Removes `directory`, then the run's directory when no node is left in it. Never throws.
void remove_ssh_node_directory(const std::filesystem::path& directory) noexcept;

/// For `lockcheck clean` of a dead run: logs in to each recorded host, kills
/// the process group of the PID file there (the server and what it started),
/// and removes the run's directory. Returns what it did, one line each
/// ("the server of node n1 on root@10.77.1.1 port 22", the directory).
/// Never throws.
std::vector<std::string> remove_run_ssh(const std::string& run_id) noexcept;

}  // namespace lockcheck
