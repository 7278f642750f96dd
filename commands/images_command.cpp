#include "commands/images_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <set>

#include "host/system_command.hpp"
#include "clusters/runtimes/docker_host_image.hpp"
#include "clusters/runtimes/docker_lockcheck_image.hpp"
#include "core/install_layout.hpp"
#include "run/exit_codes.hpp"
#include "spec/scenario_catalog.hpp"

namespace lockcheck {
namespace {

/// This lockcheck's files for its image: the binary, its helpers and its scenarios.
LockcheckFiles own_files(const std::filesystem::path& self_exe) {
    LockcheckFiles files{self_exe, {}, default_scenarios_dir()};
    for (const char* name : kHelperNames) {
        auto helper = find_helper(self_exe, name);
        if (helper.empty())
            throw HarnessError("cannot build " + lockcheck_image_reference() + ": its helper " + name +
                               " is not beside " + self_exe.string() +
                               " or in ../lib/lockcheck (build the target "
                               "lockcheck_runtime)");
        files.helpers.push_back(std::move(helper));
    }
    return files;
}

}  // namespace

int images_command(const std::filesystem::path& self_exe, bool rebuild) {
    const DockerClient docker;
    try {
        docker.ping();
        std::set<std::string> built;
        if (ensure_host_servers_image(docker)) built.insert(kHostServersImage);
        if (ensure_lockcheck_image(docker, own_files(self_exe), rebuild)) built.insert(lockcheck_image_reference());
        for (const auto& image : docker.images_labelled(kDockerImageLabel))
            std::printf("%s%s\n", image.c_str(), built.contains(image) ? " (built now)" : "");
    } catch (const DockerError& e) {
        throw HarnessError(e.what());
    } catch (const CommandError& e) {
        throw HarnessError(e.what());
    }
    return exit_code::kValid;
}

void register_images(CommandLine& line) {
    auto rebuild = std::make_shared<bool>(false);
    auto* images = line.app.add_subcommand(
        "images", "Build (when missing) and list lockcheck's Docker images (runtime docker; lockcheck itself)");
    images->add_flag("--rebuild", *rebuild, "Build the image of lockcheck again, from this binary");
    on_chosen(*images, line,
              [rebuild] { return images_command(std::filesystem::read_symlink("/proc/self/exe"), *rebuild); });
}

}  // namespace lockcheck
