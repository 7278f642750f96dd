#include "clusters/runtimes/node_runtime_registry.hpp"
#include "host/process_spawn.hpp"
#include "clusters/runtimes/ssh_runtime.hpp"

namespace lockcheck {

NodeRuntimeDescriptor ssh_runtime() {
    return {.name = "ssh",
            .description =
                "each node's server on a host of the hosts file (--hosts), over one multiplexed OpenSSH "
                "connection per host; lockcheck installs nothing there",
            .make = [](const NodePlacement& placement) { return std::make_unique<SshRuntime>(placement); },
            .network = NetworkMode::Hosts,
            .refuses_unsynced_data =
                "the lose-unsynced filesystem is a FUSE mount of this host, and the servers "
                "run on other hosts",
            .unavailable = []() -> std::optional<std::string> {
                try {
                    resolve_executable("ssh");
                    return std::nullopt;
                } catch (const SpawnError&) {
                    return "ssh runtime: the OpenSSH client `ssh` is not installed (apt-get install openssh-client)";
                }
            }};
}

}  // namespace lockcheck
