#include "clusters/docker_host_image.hpp"

#include <filesystem>

#include <unistd.h>
#include "clusters/command.hpp"

namespace fs = std::filesystem;

namespace lockcheck {
namespace {

/// Top-level directories of the host's root that hold programs and libraries.
constexpr const char* kProgramRoots[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

/// Files of /etc copied into the image.
constexpr const char* kEtcFiles[] = {"passwd", "group", "nsswitch.conf"};

/// /etc/alternatives and /etc/java-* (the JVM's conf links there): read by the servers at run time.
std::vector<fs::path> etc_dirs_to_mount() {
    std::vector<fs::path> dirs;
    std::error_code ec;
    if (fs::is_directory("/etc/alternatives", ec)) dirs.emplace_back("/etc/alternatives");
    for (const auto& entry : fs::directory_iterator("/etc", ec))
        if (entry.path().filename().string().rfind("java-", 0) == 0 && entry.is_directory(ec))
            dirs.push_back(entry.path());
    return dirs;
}

}  // namespace

std::vector<std::string> host_servers_binds() {
    std::vector<std::string> binds{"/usr:/usr:ro"};
    std::error_code ec;
    for (const char* root : kProgramRoots)
        if (fs::exists(root, ec) && !fs::is_symlink(root, ec)) binds.push_back(std::string(root) + ":" + root + ":ro");
    for (const auto& dir : etc_dirs_to_mount()) binds.push_back(dir.string() + ":" + dir.string() + ":ro");
    return binds;
}

bool ensure_host_servers_image(const DockerClient& docker) {
    if (docker.has_image(kHostServersImage)) return false;
    const fs::path dir = fs::temp_directory_path() / ("lockcheck-image-" + std::to_string(::getpid()));
    std::error_code ec;
    fs::remove_all(dir, ec);
    struct RemoveDir {
        fs::path path;
        ~RemoveDir() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } remove_dir{dir};
    const fs::path root = dir / "root";
    fs::create_directories(root / "etc");
    fs::create_directories(root / "tmp");
    fs::permissions(root / "tmp", fs::perms::all | fs::perms::sticky_bit);
    for (const char* file : kEtcFiles)
        if (fs::exists(fs::path("/etc") / file, ec)) fs::copy_file(fs::path("/etc") / file, root / "etc" / file);
    for (const char* link : kProgramRoots)
        if (fs::is_symlink(link, ec)) fs::create_symlink(fs::read_symlink(link), root / fs::path(link).relative_path());
    const fs::path tar = dir / "image.tar";
    run_checked({"tar", "-C", root.string(), "-cf", tar.string(), "."});
    docker.import_image(tar, "lockcheck/host-servers", "1", {{kDockerImageLabel, "host-servers"}});
    return true;
}

}  // namespace lockcheck
