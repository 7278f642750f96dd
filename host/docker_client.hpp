// A small client of the Docker Engine API (docs/decisions.md, "Docker: the
// Engine API over libcurl"): HTTP/1.1 over the daemon's UNIX socket, JSON
// bodies (nlohmann/json). Only what the docker node runtime
// (clusters/runtimes/docker_runtime.hpp), the run's docker network
// (clusters/network/test_network.hpp) and `lockcheck clean` / `lockcheck images` need.
//
// The socket: DOCKER_HOST when it is unix://PATH, else /var/run/docker.sock.
// Every call is synchronous, bounded by a timeout, and safe from any thread
// (each uses its own curl handle).
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// A call the daemon refused or could not answer. what(): one line, e.g.
/// "docker runtime: no Docker daemon at unix:///var/run/docker.sock: Couldn't connect to server".
class DockerError : public std::runtime_error {
public:
    DockerError(const std::string& message, long status) : std::runtime_error(message), status_(status) {}
    /// The HTTP status of the daemon's answer, 0 when none came.
    long status() const { return status_; }

private:
    long status_;
};

/// The label every container and network of a run carries: lockcheck.run=<run id>.
inline constexpr const char* kDockerRunLabel = "lockcheck.run";

/// The daemon's socket: DOCKER_HOST's path when it is unix://PATH, else
/// /var/run/docker.sock. Throws DockerError for a DOCKER_HOST of another scheme.
std::filesystem::path docker_socket_path();

class DockerClient {
public:
    /// A client of the daemon at docker_socket_path().
    DockerClient();
    explicit DockerClient(std::filesystem::path socket);

    const std::filesystem::path& socket() const { return socket_; }

    /// Throws DockerError "docker runtime: no Docker daemon at unix://SOCKET: REASON" unless the daemon answers /_ping.
    void ping() const;
    /// True when the daemon answers /_ping.
    bool answers() const;

    /// Creates container `name` from `config` (the body of POST /containers/create) and returns its id.
    std::string create_container(const std::string& name, const nlohmann::json& config) const;
    void start_container(const std::string& id) const;
    /// SIGTERM, then SIGKILL after `grace` (rounded up to whole seconds); returns when it has stopped.
    void stop_container(const std::string& id, std::chrono::milliseconds grace) const;
    /// SIGKILL, then waits until the container no longer runs.
    void kill_container(const std::string& id) const;
    void pause_container(const std::string& id) const;
    void unpause_container(const std::string& id) const;
    /// GET /containers/ID/json.
    nlohmann::json inspect_container(const std::string& id) const;
    /// Removes the container, killing it first when it runs; a missing one is no error.
    void remove_container(const std::string& id) const;
    /// Ids of the containers (running or not) that carry label `key`=`value`.
    std::vector<std::string> containers_labelled(const std::string& key, const std::string& value) const;
    /// Every value of label `key` on containers and networks (for `clean`).
    std::vector<std::string> label_values(const std::string& key) const;

    /// Creates bridge network `name` with IPv4 `subnet` (e.g. "10.77.3.0/24")
    /// and `gateway`, carrying `labels`; returns its id.
    std::string create_network(const std::string& name, const std::string& subnet, const std::string& gateway,
                               const std::map<std::string, std::string>& labels) const;
    /// Removes the network; a missing one is no error.
    void remove_network(const std::string& id) const;
    /// Ids of the networks that carry label `key`=`value`.
    std::vector<std::string> networks_labelled(const std::string& key, const std::string& value) const;

    /// True when image `reference` (e.g. "redis:7.2") is on the daemon.
    bool has_image(const std::string& reference) const;
    /// Imports the root filesystem in the tar file `tar` (streamed from the
    /// file, however large) as image `repository`:`tag` with `changes`
    /// applied (Dockerfile instructions: "LABEL k=v", "ENTRYPOINT [...]",
    /// ...), tagging it by id afterwards, which Podman needs.
    void import_image(const std::filesystem::path& tar, const std::string& repository, const std::string& tag,
                      const std::vector<std::string>& changes) const;
    /// Removes image `reference`; a missing one is no error.
    void remove_image(const std::string& reference) const;
    /// "repo:tag" of every image that carries label `key`.
    std::vector<std::string> images_labelled(const std::string& key) const;

private:
    std::filesystem::path socket_;

    struct Reply {
        long status = 0;
        std::string body;
    };
    /// One request; throws DockerError when no answer came (no daemon, timeout).
    /// A POST's body is the file `body_file` when one is given, else `body`.
    Reply request(const std::string& method, const std::string& path, const std::string& body,
                  std::chrono::seconds timeout, const std::string& content_type = "application/json",
                  const std::filesystem::path& body_file = {}) const;
    /// request(), then throws DockerError "WHAT: <the daemon's message>" unless the status is 2xx or in `also_fine`.
    Reply expect(const std::string& what, const std::string& method, const std::string& path,
                 const std::string& body = "", std::chrono::seconds timeout = std::chrono::seconds(30),
                 std::vector<long> also_fine = {}) const;
};

}  // namespace lockcheck
