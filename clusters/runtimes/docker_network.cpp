#include "clusters/runtimes/docker_network.hpp"

#include "host/docker_client.hpp"
#include "clusters/network/test_network.hpp"

namespace lockcheck {

std::string run_docker_network(const std::string& run_id) { return run_prefix(run_id); }

void create_run_docker_network(const std::string& run_id, int slot) {
    const DockerClient docker;
    docker.ping();
    const std::string subnet = "10.77." + std::to_string(slot);
    docker.create_network(run_docker_network(run_id), subnet + ".0/24", subnet + ".254", {{kDockerRunLabel, run_id}});
}

std::set<std::string> run_ids_with_docker() {
    std::set<std::string> ids;
    try {
        const DockerClient docker;
        if (!docker.answers()) return ids;
        for (auto& id : docker.label_values(kDockerRunLabel)) ids.insert(std::move(id));
    } catch (const DockerError&) {}
    return ids;
}

std::vector<std::string> remove_run_docker(const std::string& run_id) noexcept {
    std::vector<std::string> removed;
    try {
        const DockerClient docker;
        if (!docker.answers()) return removed;
        // Each removal on its own: one the daemon refuses does not keep the others.
        for (const auto& id : docker.containers_labelled(kDockerRunLabel, run_id)) {
            try {
                std::string name = id.substr(0, 12);
                if (const auto inspected = docker.inspect_container(id); inspected.contains("Name"))
                    name = inspected["Name"].get<std::string>().substr(1);
                docker.remove_container(id);
                removed.push_back("container " + name);
            } catch (const std::exception&) {}
        }
        for (const auto& id : docker.networks_labelled(kDockerRunLabel, run_id)) {
            try {
                docker.remove_network(id);
                removed.push_back("docker network " + run_docker_network(run_id));
            } catch (const std::exception&) {}
        }
    } catch (const std::exception&) {
        // No daemon, or it cannot list: `clean` tries again.
    }
    return removed;
}

}  // namespace lockcheck
