// Node runtime `docker`: one container per node, on the run's Docker bridge
// network (clusters/runtimes/docker_network.hpp) at the node's fixed address, labelled
// lockcheck.run=<run id> and lockcheck.node=<name>, through the Docker Engine
// API (host/docker_client.hpp).
//
//   - Image: the placement's image as the daemon has it (never pulled), run
//     with the server's basename looked up in the image's PATH; without one,
//     lockcheck's own image of this host's servers (clusters/runtimes/docker_host_image.hpp)
//     with the same absolute argv as runtime netns.
//   - The node's directory (configs, data, log), the run's scratch directory
//     and the clock library are bind-mounted at the same paths, so configs,
//     LD_PRELOAD and copy_in work as on the host. The server's output is
//     appended to the node's log by a /bin/sh wrapper inside the container.
//   - pause/resume: docker pause/unpause (cgroup freezer); kill: SIGKILL to
//     the container, waited for; stop: docker stop with the grace. kill and
//     stop never throw: when the daemon refuses, the container is removed
//     (and `lockcheck clean` removes what even that left).
//   - pid: the container's init process as this host sees it (inspect);
//     run_in_network: `nsenter -t PID -n ARGV`, so iptables and tc act on the
//     container's own network namespace.
// The container is removed when the runtime is destroyed and when the next
// start replaces it; `lockcheck clean` removes those of dead runs by label.
#pragma once

#include <mutex>

#include "host/docker_client.hpp"
#include "clusters/runtimes/node_runtime.hpp"

namespace lockcheck {

class DockerRuntime final : public NodeRuntime {
public:
    explicit DockerRuntime(NodePlacement placement);
    /// Removes the container (killing it).
    ~DockerRuntime() override;

    const std::string& address() const override { return placement_.address; }
    void start(const ServerLaunch& launch) override;
    bool running() override;
    std::optional<int> exit_status() override;
    void stop(std::chrono::milliseconds grace) override;
    void kill() override;
    void pause() override;
    void resume() override;
    pid_t pid() const override;
    bool has_own_network() const override { return true; }
    std::string run_in_network(const std::vector<std::string>& argv) const override;
    void copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const override;
    void rewrite_in_place(const std::filesystem::path& file, const std::string& bytes) const override {
        rewrite_shared_file(file, bytes);
    }
    std::string read_log() const override;

private:
    const NodePlacement placement_;
    const DockerClient docker_;
    mutable std::mutex container_mutex_;  ///< run_in_network may ask for the PID while start() replaces the container
    std::string container_;               ///< its id, once created

    /// The container's id ("" before the first start).
    std::string container() const;
    /// The container's State (inspect), or nullopt when there is none.
    std::optional<nlohmann::json> state() const;
    /// The body of POST /containers/create for `launch`. Throws NodeRuntimeError for a missing image.
    nlohmann::json container_config(const ServerLaunch& launch) const;
    void remove() noexcept;
};

}  // namespace lockcheck
