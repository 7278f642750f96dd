#include "clusters/runtimes/docker_host_image.hpp"

#include <unistd.h>

#include <fstream>
#include <set>

#include "host/system_command.hpp"

namespace fs = std::filesystem;

namespace lockcheck {
namespace {

/// Top-level directories of the host's root that hold programs and libraries.
constexpr const char* kProgramRoots[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

/// Files of /etc copied into the image.
constexpr const char* kEtcFiles[] = {"passwd", "group", "nsswitch.conf"};

}  // namespace

std::vector<fs::path> host_server_etc_dirs() {
    std::vector<fs::path> dirs;
    std::error_code ec;
    if (fs::is_directory("/etc/alternatives", ec)) dirs.emplace_back("/etc/alternatives");
    for (const auto& entry : fs::directory_iterator("/etc", ec))
        if (entry.path().filename().string().rfind("java-", 0) == 0 && entry.is_directory(ec))
            dirs.push_back(entry.path());
    return dirs;
}

std::vector<std::string> host_servers_binds() {
    std::vector<std::string> binds{"/usr:/usr:ro"};
    std::error_code ec;
    for (const char* root : kProgramRoots)
        if (fs::exists(root, ec) && !fs::is_symlink(root, ec)) binds.push_back(std::string(root) + ":" + root + ":ro");
    for (const auto& dir : host_server_etc_dirs()) binds.push_back(dir.string() + ":" + dir.string() + ":ro");
    return binds;
}

ImageScratch::ImageScratch(const std::string& name)
    : path_(fs::temp_directory_path() / ("lockcheck-" + name + "-" + std::to_string(::getpid()))) {
    std::error_code ec;
    fs::remove_all(path_, ec);
    fs::create_directories(path_);
}

ImageScratch::~ImageScratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

void write_image_skeleton(const fs::path& root) {
    std::error_code ec;
    fs::create_directories(root / "etc");
    fs::create_directories(root / "tmp");
    fs::permissions(root / "tmp", fs::perms::all | fs::perms::sticky_bit);
    for (const char* file : kEtcFiles)
        if (fs::exists(fs::path("/etc") / file, ec)) fs::copy_file(fs::path("/etc") / file, root / "etc" / file);
    for (const char* link : kProgramRoots)
        if (fs::is_symlink(link, ec)) fs::create_symlink(fs::read_symlink(link), root / fs::path(link).relative_path());
}

void import_image_tree(const DockerClient& docker, const fs::path& root, const std::vector<fs::path>& host_paths,
                       const std::string& repository, const std::string& tag, const std::string& kind,
                       const std::vector<std::string>& changes) {
    const fs::path tar = root.parent_path() / "image.tar";
    std::vector<std::string> argv{"tar", "-C", root.string(), "-cf", tar.string(), "."};
    if (!host_paths.empty()) {
        const fs::path list = root.parent_path() / "host-paths.txt";
        std::ofstream out(list);
        std::set<fs::path> listed;  // the daemon refuses an archive that holds a path twice
        std::error_code ec;
        for (const auto& path : host_paths)
            if (!fs::exists(fs::symlink_status(root / path.relative_path(), ec)) && listed.insert(path).second)
                out << path.relative_path().string() << '\n';
        out.close();
        // Unreadable host files (a 0600 file when not root) are left out, not fatal.
        argv.insert(argv.end(), {"--ignore-failed-read", "--no-recursion", "-C", "/", "-T", list.string()});
    }
    run_checked(argv);
    auto all_changes = changes;
    all_changes.push_back(std::string("LABEL ") + kDockerImageLabel + "=" + kind);
    docker.import_image(tar, repository, tag, all_changes);
}

bool ensure_host_servers_image(const DockerClient& docker) {
    if (docker.has_image(kHostServersImage)) return false;
    const ImageScratch dir("image");
    write_image_skeleton(dir.path() / "root");
    import_image_tree(docker, dir.path() / "root", {}, "lockcheck/host-servers", "1", "host-servers");
    return true;
}

}  // namespace lockcheck
