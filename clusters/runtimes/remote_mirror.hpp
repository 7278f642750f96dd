// The files a node of runtime ssh reads, kept on its host at the same
// absolute paths as on this host: its directory (configs, firewall rules),
// the run's scratch directory, the clock library and launcher (NodePlacement::shared_paths).
// Each sync sends, as one tar archive over the host's connection, the
// directories and every regular file that is new or changed (size or mtime)
// since the last sync; files the server writes on the host are left alone
// unless the controller changed its own copy.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "clusters/runtimes/ssh_connection.hpp"

namespace lockcheck {

class RemoteMirror {
public:
    /// Mirrors `paths` (files or directories, walked recursively), except
    /// `excluded` (the node's log, which the server writes on the host);
    /// `archive` is the local file the archive is built in.
    RemoteMirror(std::vector<std::filesystem::path> paths, std::vector<std::filesystem::path> excluded,
                 std::filesystem::path archive);
    /// Sends what changed. Thread-safe. Throws NodeRuntimeError naming the
    /// host and why (a full disk, no tar there).
    void sync(const SshConnection& connection);

private:
    const std::vector<std::filesystem::path> paths_;
    std::vector<std::filesystem::path> excluded_;  ///< absolute
    const std::filesystem::path archive_;
    std::mutex mutex_;
    /// What each file sent last was: its size and mtime.
    std::map<std::filesystem::path, std::pair<std::uintmax_t, std::filesystem::file_time_type>> sent_;

    /// Paths (relative to /) to send now: directories, and files that changed.
    std::vector<std::string> changed();
};

}  // namespace lockcheck
