#include "clusters/runtimes/remote_mirror.hpp"

#include <algorithm>

#include "host/system_command.hpp"
#include "clusters/runtimes/node_runtime.hpp"

namespace fs = std::filesystem;

namespace lockcheck {

RemoteMirror::RemoteMirror(std::vector<fs::path> paths, std::vector<fs::path> excluded, fs::path archive)
    : paths_(std::move(paths)), archive_(std::move(archive)) {
    for (const auto& path : excluded) excluded_.push_back(fs::absolute(path).lexically_normal());
}

std::vector<std::string> RemoteMirror::changed() {
    std::vector<std::string> send;
    const auto consider = [&](const fs::path& path) {
        std::error_code ec;
        const auto status = fs::symlink_status(path, ec);
        if (ec || std::find(excluded_.begin(), excluded_.end(), path) != excluded_.end()) return;
        const auto relative = path.lexically_relative("/").string();
        if (fs::is_directory(status)) {
            send.push_back(relative);
            return;
        }
        if (!fs::is_regular_file(status)) return;
        const std::pair now{fs::file_size(path, ec), fs::last_write_time(path, ec)};
        if (ec) return;
        auto& last = sent_[path];
        if (last == now) return;
        last = now;
        send.push_back(relative);
    };
    for (const auto& root : paths_) {
        const auto absolute = fs::absolute(root).lexically_normal();
        consider(absolute);
        std::error_code ec;
        if (!fs::is_directory(absolute, ec)) continue;
        for (fs::recursive_directory_iterator it(absolute, ec), end; !ec && it != end; it.increment(ec))
            consider(it->path());
    }
    return send;
}

void RemoteMirror::sync(const SshConnection& connection) {
    std::lock_guard lock(mutex_);
    const auto send = changed();
    if (send.empty()) return;
    std::vector<std::string> tar{"tar", "-C", "/", "--no-recursion", "-cf", archive_.string(), "--"};
    tar.insert(tar.end(), send.begin(), send.end());
    try {
        run_checked(tar);
        connection.run("tar -C / -xpf -", archive_);
    } catch (const CommandError& e) {
        sent_.clear();  // send everything again next time
        throw NodeRuntimeError(std::string("cannot upload its files: ") + e.what());
    }
    std::error_code ec;
    fs::remove(archive_, ec);
}

}  // namespace lockcheck
