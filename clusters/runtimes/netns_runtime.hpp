// Node runtime `netns` (the default): the server is a process of this host
// (host/child_process.hpp), started inside the node's network namespace
// when it has one (`ip netns exec`), its output appended to the node's log
// file. pause/resume are SIGSTOP/SIGCONT to its process group, kill is
// SIGKILL to it and its cgroup.
#pragma once

#include <memory>

#include "host/child_process.hpp"
#include "clusters/runtimes/node_runtime.hpp"

namespace lockcheck {

class NetnsRuntime final : public NodeRuntime {
public:
    explicit NetnsRuntime(NodePlacement placement);
    ~NetnsRuntime() override = default;

    const std::string& address() const override { return placement_.address; }
    void start(const ServerLaunch& launch) override;
    bool running() override;
    std::optional<int> exit_status() override;
    void stop(std::chrono::milliseconds grace) override;
    void kill() override;
    void pause() override;
    void resume() override;
    pid_t pid() const override;
    bool has_own_network() const override { return placement_.netns.has_value(); }
    std::string run_in_network(const std::vector<std::string>& argv) const override;
    void copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const override;
    void rewrite_in_place(const std::filesystem::path& file, const std::string& bytes) const override {
        rewrite_shared_file(file, bytes);
    }
    std::string read_log() const override;

private:
    const NodePlacement placement_;
    std::unique_ptr<ChildProcess> process_;  ///< the server, once started
};

}  // namespace lockcheck
