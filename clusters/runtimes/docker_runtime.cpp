#include "clusters/runtimes/docker_runtime.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <utility>

#include "host/child_process.hpp"
#include "host/system_command.hpp"
#include "clusters/runtimes/docker_host_image.hpp"
#include "clusters/runtimes/docker_network.hpp"

namespace lockcheck {
namespace {

/// Redirects the shell's output to the log ($0), then becomes the server ("$@").
constexpr const char* kLogWrapper = "exec >>\"$0\" 2>&1; exec \"$@\"";

/// The host paths bind-mounted read-write at the same path: the shared
/// paths, and the log's directory unless one of them holds it.
std::vector<std::string> shared_binds(const NodePlacement& placement) {
    std::vector<std::filesystem::path> paths = placement.shared_paths;
    const auto log_dir = placement.log.parent_path();
    const bool log_shared = std::any_of(paths.begin(), paths.end(), [&](const std::filesystem::path& path) {
        const auto relative = log_dir.lexically_relative(path);
        return !relative.empty() && *relative.begin() != "..";
    });
    if (!log_shared) paths.push_back(log_dir);
    std::vector<std::string> binds;
    for (const auto& path : paths) {
        const auto absolute = std::filesystem::absolute(path).lexically_normal().string();
        binds.push_back(absolute + ":" + absolute);
    }
    return binds;
}

/// HostConfig.Ulimits. Without them Podman applies its defaults (1048576
/// files, 4194304 processes), which a host with lower hard limits refuses
/// (EPERM when the container starts). Open files: this process's limit, as
/// under runtime netns. Processes: at most 32768, the limit Podman lowers
/// itself to when it cannot raise its own (a container gets no more than its
/// daemon has; the servers run as root, whom the limit does not bind anyway).
nlohmann::json inherited_limits() {
    constexpr rlim_t kPodmanProcessLimit = 32768;
    auto ulimits = nlohmann::json::array();
    const auto add = [&](const char* name, rlim_t soft, rlim_t hard) {
        ulimits.push_back(
            {{"Name", name}, {"Soft", static_cast<std::int64_t>(soft)}, {"Hard", static_cast<std::int64_t>(hard)}});
    };
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_max != RLIM_INFINITY)
        add("nofile", limit.rlim_cur, limit.rlim_max);
    if (getrlimit(RLIMIT_NPROC, &limit) == 0)
        add("nproc", std::min(limit.rlim_cur, kPodmanProcessLimit), std::min(limit.rlim_max, kPodmanProcessLimit));
    return ulimits;
}

}  // namespace

DockerRuntime::DockerRuntime(NodePlacement placement) : placement_(std::move(placement)) {}

DockerRuntime::~DockerRuntime() { remove(); }

std::string DockerRuntime::container() const {
    std::lock_guard lock(container_mutex_);
    return container_;
}

void DockerRuntime::remove() noexcept {
    std::string id;
    {
        std::lock_guard lock(container_mutex_);
        id.swap(container_);
    }
    if (id.empty()) return;
    try {
        docker_.remove_container(id);
    } catch (const DockerError&) {
        // `lockcheck clean` finds it by its label.
    }
}

nlohmann::json DockerRuntime::container_config(const ServerLaunch& launch) const {
    const bool own_image = placement_.image.empty();
    const std::string image = own_image ? kHostServersImage : placement_.image;
    try {
        if (own_image)
            ensure_host_servers_image(docker_);
        else if (!docker_.has_image(image))
            throw NodeRuntimeError("image " + image + " is not on the Docker daemon at unix://" +
                                   docker_.socket().string() + " (lockcheck never pulls; docker pull it first)");
    } catch (const DockerError& e) {
        throw NodeRuntimeError(e.what());
    }
    ServerLaunch in_image = launch;  // a foreign image has its own server, found in its PATH
    if (!own_image) in_image.argv.front() = std::filesystem::path(launch.argv.front()).filename().string();
    const std::vector<std::string> argv = launch_command(in_image);
    std::vector<std::string> binds = own_image ? host_servers_binds() : std::vector<std::string>{};
    for (auto& bind : shared_binds(placement_)) binds.push_back(std::move(bind));
    const std::string network = run_docker_network(placement_.run_id);
    // The controller's working directory, as a server under runtime netns has: every path of the
    // run (log, config, data) is bound at its own absolute path, so a relative one (--store given
    // relative) names the same file in the container.
    return {{"Image", image},
            {"WorkingDir", std::filesystem::current_path().string()},
            {"Entrypoint", {"/bin/sh", "-c", kLogWrapper, placement_.log.string()}},
            {"Cmd", argv},
            {"Env", launch.env},
            {"Labels", {{kDockerRunLabel, placement_.run_id}, {"lockcheck.node", placement_.name}}},
            {"HostConfig",
             {{"Binds", binds}, {"NetworkMode", network}, {"Privileged", false}, {"Ulimits", inherited_limits()}}},
            {"NetworkingConfig",
             {{"EndpointsConfig", {{network, {{"IPAMConfig", {{"IPv4Address", placement_.address}}}}}}}}}};
}

void DockerRuntime::start(const ServerLaunch& launch) {
    remove();  // kills a server that still runs
    const auto config = container_config(launch);
    try {
        const std::string id =
            docker_.create_container(run_docker_network(placement_.run_id) + "-" + placement_.name, config);
        {
            std::lock_guard lock(container_mutex_);
            container_ = id;
        }
        docker_.start_container(id);
    } catch (const DockerError& e) {
        throw NodeRuntimeError(e.what());
    }
}

std::optional<nlohmann::json> DockerRuntime::state() const {
    const std::string id = container();
    if (id.empty()) return std::nullopt;
    try {
        return docker_.inspect_container(id).at("State");
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

bool DockerRuntime::running() {
    const auto s = state();
    return s && s->value("Running", false);
}

std::optional<int> DockerRuntime::exit_status() {
    const auto s = state();
    if (!s || s->value("Running", false)) return std::nullopt;
    return s->value("ExitCode", -1);
}

void DockerRuntime::stop(std::chrono::milliseconds grace) {
    const std::string id = container();
    if (id.empty()) return;
    try {
        if (state().value_or(nlohmann::json::object()).value("Paused", false)) docker_.unpause_container(id);
        docker_.stop_container(id, grace);
    } catch (const DockerError&) {
        kill();
    }
}

void DockerRuntime::kill() {
    const std::string id = container();
    if (id.empty()) return;
    try {
        docker_.kill_container(id);  // a paused container is killed too
    } catch (const DockerError&) {
        // Never throws (Node's destructor kills): removing it kills it as well.
        remove();
    }
}

void DockerRuntime::pause() {
    if (!running()) return;
    try {
        docker_.pause_container(container());
    } catch (const DockerError& e) {
        throw NodeRuntimeError(e.what());
    }
}

void DockerRuntime::resume() {
    const auto s = state();
    if (!s || !s->value("Paused", false)) return;
    try {
        docker_.unpause_container(container());
    } catch (const DockerError& e) {
        throw NodeRuntimeError(e.what());
    }
}

pid_t DockerRuntime::pid() const {
    const auto s = state();
    if (!s || !s->value("Running", false)) return -1;
    const int pid = s->value("Pid", 0);
    return pid > 0 ? pid : -1;
}

std::string DockerRuntime::run_in_network(const std::vector<std::string>& argv) const {
    const pid_t server = pid();
    if (server < 0) throw NodeRuntimeError("its container does not run, so it has no network namespace to enter");
    std::vector<std::string> full{"nsenter", "-t", std::to_string(server), "-n"};
    full.insert(full.end(), argv.begin(), argv.end());
    return run_checked(full);
}

void DockerRuntime::copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const {
    copy_shared_file(from, to);
}

std::string DockerRuntime::read_log() const { return log_text(placement_.log); }

}  // namespace lockcheck
