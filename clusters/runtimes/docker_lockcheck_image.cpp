#include "clusters/runtimes/docker_lockcheck_image.hpp"

#include <fmt/format.h>

#include <regex>
#include <set>
#include <sstream>

#include "host/system_command.hpp"
#include "clusters/runtimes/debian_packages.hpp"
#include "clusters/runtimes/docker_host_image.hpp"

#ifndef LOCKCHECK_VERSION
#define LOCKCHECK_VERSION "0"
#endif
#ifndef LOCKCHECK_RUNTIME_PACKAGES
#define LOCKCHECK_RUNTIME_PACKAGES ""
#endif

namespace fs = std::filesystem;

namespace lockcheck {
namespace {

constexpr const char* kRepository = "lockcheck/lockcheck";

/// The shared libraries `binary` loads, as ldd resolves them on this host, and what their links point to.
std::vector<fs::path> linked_libraries(const fs::path& binary) {
    std::vector<fs::path> libraries;
    const auto result = run_command({"ldd", binary.string()});
    static const std::regex resolved(R"(=> (/[^ ]+) \()");
    std::error_code ec;
    for (std::sregex_iterator it(result.output.begin(), result.output.end(), resolved), end; it != end; ++it) {
        const fs::path library((*it)[1].str());
        const auto dir = fs::canonical(library.parent_path(), ec);
        if (ec) continue;
        libraries.push_back(dir / library.filename());
        if (const auto target = fs::canonical(library, ec); !ec) libraries.push_back(target);
    }
    return libraries;
}

/// Every entry under the host's /etc/alternatives and /etc/java-*, links as links.
std::vector<fs::path> server_etc_entries() {
    std::vector<fs::path> entries;
    std::error_code ec;
    for (const auto& dir : host_server_etc_dirs()) {
        entries.push_back(dir);
        for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) entries.push_back(entry.path());
    }
    return entries;
}

/// lockcheck laid out as its package installs it, under `root`, and the directories a run writes to.
void write_lockcheck_tree(const fs::path& root, const LockcheckFiles& files) {
    fs::create_directories(root / "usr/bin");
    fs::create_directories(root / "usr/lib/lockcheck");
    fs::create_directories(root / "usr/share/lockcheck");
    fs::copy_file(files.binary, root / "usr/bin/lockcheck");
    for (const auto& helper : files.helpers) fs::copy_file(helper, root / "usr/lib/lockcheck" / helper.filename());
    fs::copy(files.scenarios, root / "usr/share/lockcheck/scenarios", fs::copy_options::recursive);
    for (const char* dir : {"run", "var/tmp", "root", "lockcheck"}) fs::create_directories(root / dir);
    fs::permissions(root / "var/tmp", fs::perms::all | fs::perms::sticky_bit);
    fs::permissions(root / "root", fs::perms::owner_all);
    fs::create_directory_symlink("/run", root / "var/run");
}

}  // namespace

std::string lockcheck_image_reference() {
    // fmt rather than operator+: GCC 12 gives a false -Warray-bounds on
    // string + literal + literal when <string> comes precompiled.
    return fmt::format("{}:{}", kRepository, LOCKCHECK_VERSION);
}

std::vector<std::string> lockcheck_runtime_packages() {
    std::vector<std::string> packages;
    std::istringstream in(LOCKCHECK_RUNTIME_PACKAGES);
    for (std::string entry; std::getline(in, entry, ',');)
        if (const auto first = entry.find_first_not_of(' '); first != std::string::npos)
            packages.push_back(entry.substr(first, entry.find_last_not_of(' ') - first + 1));
    return packages;
}

bool ensure_lockcheck_image(const DockerClient& docker, const LockcheckFiles& files, bool rebuild) {
    const auto reference = lockcheck_image_reference();
    if (rebuild) docker.remove_image(reference);
    if (docker.has_image(reference)) return false;

    const auto installed = installed_packages();
    std::vector<std::string> missing;
    const auto packages = dependency_closure(installed, lockcheck_runtime_packages(), missing);
    if (!missing.empty()) {
        std::string names;
        for (const auto& name : missing) names += (names.empty() ? "" : ", ") + name;
        throw CommandError("cannot build " + reference + ": this host lacks the package(s) " + names +
                           " (scripts/setup.sh installs them)");
    }
    auto host_paths = package_files(installed, packages);
    std::set<fs::path> extra;
    for (const auto& binary : files.helpers)
        for (const auto& library : linked_libraries(binary)) extra.insert(library);
    for (const auto& library : linked_libraries(files.binary)) extra.insert(library);
    for (const auto& entry : server_etc_entries()) extra.insert(entry);
    for (const auto& link : alternative_links()) extra.insert(link);  // /usr/bin/java, /usr/sbin/iptables, ...
    host_paths.insert(host_paths.end(), extra.begin(), extra.end());

    const ImageScratch dir("image-lockcheck");
    const fs::path root = dir.path() / "root";
    write_image_skeleton(root);
    write_lockcheck_tree(root, files);
    import_image_tree(docker, root, host_paths, kRepository, LOCKCHECK_VERSION, "lockcheck",
                      {R"(ENTRYPOINT ["/usr/bin/lockcheck"])", "WORKDIR /lockcheck",
                       "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"});
    return true;
}

}  // namespace lockcheck
