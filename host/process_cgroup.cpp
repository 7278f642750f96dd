#include "host/process_cgroup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace lockcheck {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool has_option(const std::string& options, const std::string& wanted) {
    std::istringstream in(options);
    for (std::string option; std::getline(in, option, ',');)
        if (option == wanted) return true;
    return false;
}

/// The cgroup v2 mount and the v1 freezer mount, in that order, with `dir`
/// the mount point (not yet lockcheck's directory in it).
std::vector<CgroupHierarchy> cgroup_mounts() {
    std::optional<CgroupHierarchy> unified, freezer;
    std::ifstream mounts("/proc/self/mountinfo");
    for (std::string line; std::getline(mounts, line);) {
        // "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS...] - FSTYPE SOURCE SUPER_OPTIONS"
        const auto separator = line.find(" - ");
        if (separator == std::string::npos) continue;
        std::istringstream left(line.substr(0, separator)), right(line.substr(separator + 3));
        std::string id, parent, device, root, mount_point, fs_type, source, super_options;
        left >> id >> parent >> device >> root >> mount_point;
        right >> fs_type >> source >> super_options;
        if (fs_type == "cgroup2" && !unified) unified = CgroupHierarchy{mount_point, CgroupKind::Unified};
        if (fs_type == "cgroup" && !freezer && has_option(super_options, "freezer"))
            freezer = CgroupHierarchy{mount_point, CgroupKind::Freezer};
    }
    std::vector<CgroupHierarchy> found;
    if (unified) found.push_back(*unified);
    if (freezer) found.push_back(*freezer);
    return found;
}

/// True when a forked process can be moved into a fresh cgroup of `hierarchy`.
bool a_process_can_join(const CgroupHierarchy& hierarchy) {
    const auto probe = hierarchy.dir / ("probe-" + std::to_string(::getpid()));
    if (::mkdir(probe.c_str(), 0755) != 0) return false;
    const std::string procs = (probe / "cgroup.procs").string();
    const pid_t child = ::fork();
    if (child == 0) ::_exit(join_cgroup(procs.c_str()) ? 0 : 1);
    int status = 1;
    const bool joined =
        child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    ::rmdir(probe.c_str());
    return joined;
}

/// lockcheck's directory in `mount`, created when missing; nullopt when it
/// cannot be made or, in cgroup v2, its cgroups cannot be killed at once.
std::optional<CgroupHierarchy> make_hierarchy(const CgroupHierarchy& mount) {
    const auto dir = mount.dir / "lockcheck";
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return std::nullopt;
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
    if (::access(dir.c_str(), W_OK) != 0) return std::nullopt;  // made by root, seen by another user
    std::error_code ec;
    if (mount.kind == CgroupKind::Unified && !fs::exists(dir / "cgroup.kill", ec)) return std::nullopt;
    const CgroupHierarchy hierarchy{dir, mount.kind};
    if (!a_process_can_join(hierarchy)) return std::nullopt;
    return hierarchy;
}

/// Writes `text` to a cgroup control file; false when it cannot.
bool write_control(const fs::path& file, const std::string& text) {
    std::ofstream out(file);
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

std::string read_control(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// `dir` and every cgroup below it, deepest first.
std::vector<fs::path> subtree_deepest_first(const fs::path& dir) {
    std::vector<fs::path> dirs;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec) && !it->is_symlink(ec)) dirs.push_back(it->path());
    std::sort(dirs.begin(), dirs.end(), [](const fs::path& a, const fs::path& b) {
        return std::distance(a.begin(), a.end()) > std::distance(b.begin(), b.end());
    });
    if (fs::exists(dir, ec)) dirs.push_back(dir);
    return dirs;
}

/// The PIDs in cgroup `dir` itself.
std::vector<int> pids_in(const fs::path& dir) {
    std::vector<int> pids;
    std::istringstream in(read_control(dir / "cgroup.procs"));
    for (int pid; in >> pid;) pids.push_back(pid);
    return pids;
}

bool unified_populated(const fs::path& dir) {
    std::istringstream events(read_control(dir / "cgroup.events"));
    for (std::string key, value; events >> key >> value;)
        if (key == "populated") return value != "0";
    return false;  // gone
}

bool kill_unified(const fs::path& dir, Clock::time_point deadline) {
    while (unified_populated(dir)) {
        if (Clock::now() >= deadline) return false;
        write_control(dir / "cgroup.kill", "1");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

/// Freeze, SIGKILL everyone, thaw: a frozen process cannot fork a new one
/// between the reading of cgroup.procs and the kill.
bool kill_frozen(const fs::path& dir, Clock::time_point deadline) {
    while (!cgroup_tree_pids(dir).empty()) {
        if (Clock::now() >= deadline) return false;
        write_control(dir / "freezer.state", "FROZEN");
        for (int i = 0; i < 100 && read_control(dir / "freezer.state").rfind("FROZEN", 0) != 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        for (int pid : cgroup_tree_pids(dir)) ::kill(pid, SIGKILL);
        write_control(dir / "freezer.state", "THAWED");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

/// Writes `process` in decimal to `procs_fd` (a cgroup.procs open for
/// writing, or -1 when it could not be opened) and closes it; false (errno
/// set) when it cannot. Async-signal-safe.
bool write_pid_to(int procs_fd, pid_t process) noexcept {
    if (procs_fd < 0) return false;
    char digits[24];
    char* const end = digits + sizeof digits;
    char* p = end;
    auto pid = static_cast<unsigned long>(process);
    do {
        *--p = static_cast<char>('0' + pid % 10);
        pid /= 10;
    } while (pid > 0);
    const auto length = end - p;
    const bool written = ::write(procs_fd, p, static_cast<size_t>(length)) == length;
    const int saved = errno;
    ::close(procs_fd);
    errno = saved;
    return written;
}

}  // namespace

std::vector<CgroupHierarchy> usable_cgroup_hierarchies() {
    std::vector<CgroupHierarchy> usable;
    for (const auto& mount : cgroup_mounts())
        if (auto hierarchy = make_hierarchy(mount)) usable.push_back(*hierarchy);
    return usable;
}

std::optional<CgroupHierarchy> lockcheck_cgroups() {
    static const std::optional<CgroupHierarchy> found = []() -> std::optional<CgroupHierarchy> {
        for (const auto& mount : cgroup_mounts())
            if (auto hierarchy = make_hierarchy(mount)) return hierarchy;
        return std::nullopt;
    }();
    return found;
}

std::vector<CgroupHierarchy> existing_cgroup_hierarchies() {
    std::vector<CgroupHierarchy> existing;
    for (const auto& mount : cgroup_mounts()) {
        std::error_code ec;
        if (fs::is_directory(mount.dir / "lockcheck", ec)) existing.push_back({mount.dir / "lockcheck", mount.kind});
    }
    return existing;
}

std::vector<int> cgroup_tree_pids(const fs::path& dir) {
    std::vector<int> pids;
    for (const auto& cgroup : subtree_deepest_first(dir))
        for (int pid : pids_in(cgroup)) pids.push_back(pid);
    return pids;
}

bool join_cgroup(const char* procs_file) noexcept { return move_to_cgroup(procs_file, ::getpid()); }

bool move_to_cgroup(const char* procs_file, pid_t process) noexcept {
    return write_pid_to(::open(procs_file, O_WRONLY | O_CLOEXEC), process);
}

bool join_cgroup_at(int cgroup_dir) noexcept {
    return write_pid_to(::openat(cgroup_dir, "cgroup.procs", O_WRONLY | O_CLOEXEC), ::getpid());
}

bool kill_cgroup_tree(const CgroupHierarchy& hierarchy, const fs::path& dir,
                      std::chrono::milliseconds timeout) noexcept {
    try {
        const auto deadline = Clock::now() + timeout;
        return hierarchy.kind == CgroupKind::Unified ? kill_unified(dir, deadline) : kill_frozen(dir, deadline);
    } catch (...) {
        return false;
    }
}

bool remove_cgroup_tree(const CgroupHierarchy& hierarchy, const fs::path& dir) noexcept {
    try {
        kill_cgroup_tree(hierarchy, dir);
        for (int attempt = 0; attempt < 100; ++attempt) {
            for (const auto& cgroup : subtree_deepest_first(dir)) ::rmdir(cgroup.c_str());
            std::error_code ec;
            if (!fs::exists(dir, ec)) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));  // a process still leaving
        }
    } catch (...) {}
    return false;
}

ProcessCgroup::ProcessCgroup(CgroupHierarchy hierarchy, fs::path dir)
    : hierarchy_(std::move(hierarchy)), dir_(std::move(dir)), procs_file_((dir_ / "cgroup.procs").string()) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::exists(procs_file_))
        throw std::runtime_error("cannot create cgroup " + dir_.string() + ": " + ec.message());
}

ProcessCgroup::~ProcessCgroup() { remove_cgroup_tree(hierarchy_, dir_); }

}  // namespace lockcheck
