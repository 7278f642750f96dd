// To add a runtime: implement NodeRuntime (clusters/runtimes/node_runtime.hpp) in
// clusters/NAME_runtime.{hpp,cpp}, write its descriptor in
// clusters/NAME_runtime_descriptor.cpp, and list it here.
#include "clusters/runtimes/node_runtime_registry.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <stdexcept>

#include "core/find_by_name.hpp"

namespace lockcheck {

const std::vector<NodeRuntimeDescriptor>& node_runtime_descriptors() {
    static const std::vector<NodeRuntimeDescriptor> all{netns_runtime(), docker_runtime(), ssh_runtime()};
    return all;
}

const NodeRuntimeDescriptor* find_node_runtime(const std::string& name) {
    return find_by_name(node_runtime_descriptors(), name);
}

std::string node_runtime_names() {
    std::string names;
    for (const auto& runtime : node_runtime_descriptors()) names += (names.empty() ? "" : ", ") + runtime.name;
    return names;
}

std::vector<std::string> launch_command(const ServerLaunch& launch) {
    if (!launch.launcher) return launch.argv;
    std::vector<std::string> command{launch.launcher->string(), "--"};
    command.insert(command.end(), launch.argv.begin(), launch.argv.end());
    return command;
}

void copy_shared_file(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::error_code error;
    std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, error);
    if (error) throw NodeRuntimeError("cannot copy " + from.string() + " to " + to.string() + ": " + error.message());
}

void rewrite_shared_file(const std::filesystem::path& file, const std::string& bytes) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw NodeRuntimeError("cannot open " + file.string());
    const auto written = ::pwrite(fd, bytes.data(), bytes.size(), 0);
    ::close(fd);
    if (written != static_cast<ssize_t>(bytes.size())) throw NodeRuntimeError("cannot write " + file.string());
}

std::unique_ptr<NodeRuntime> make_node_runtime(const std::string& name, const NodePlacement& placement) {
    const NodeRuntimeDescriptor* runtime = find_node_runtime(name);
    if (!runtime)
        throw std::invalid_argument("unknown runtime '" + name + "'; the runtimes are " + node_runtime_names());
    return runtime->make(placement);
}

}  // namespace lockcheck
