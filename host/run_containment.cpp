#include "host/run_containment.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace lockcheck {
namespace {

namespace fs = std::filesystem;

/// The cgroup of the run that lives in this process, if any.
struct ActiveRun {
    bool active = false;
    std::optional<CgroupHierarchy> hierarchy;
    fs::path dir;
    unsigned next_child = 0;
};

std::mutex active_mutex;
ActiveRun active_run;

std::string run_cgroup_name(const std::string& run_id) { return "lc-" + run_id; }

/// The children of this process, from /proc/<pid>/stat ("PID (COMM) STATE PPID ...").
std::vector<pid_t> children_of_this_process() {
    std::vector<pid_t> children;
    const pid_t self = ::getpid();
    std::error_code ec;
    for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat_file(it->path() / "stat");
        std::string stat;
        std::getline(stat_file, stat);
        const auto comm_end = stat.rfind(')');
        if (comm_end == std::string::npos) continue;
        std::istringstream fields(stat.substr(comm_end + 1));
        std::string state;
        pid_t parent = 0;
        fields >> state >> parent;
        if (parent == self) children.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return children;
}

}  // namespace

RunContainment::RunContainment(const std::string& run_id) {
    std::lock_guard lock(active_mutex);
    if (active_run.active) throw std::logic_error("a run is already contained in this process");
    ActiveRun run;
    run.active = true;
    run.hierarchy = lockcheck_cgroups();
    if (run.hierarchy) {
        run.dir = run.hierarchy->dir / run_cgroup_name(run_id);
        std::error_code ec;
        if (!fs::create_directory(run.dir, ec) || ec)
            throw std::runtime_error("cannot create the run's cgroup " + run.dir.string() + ": " +
                                     (ec ? ec.message() : "it exists already"));
        cgroup_ = run.dir;
    }
    ::prctl(PR_GET_CHILD_SUBREAPER, &previous_subreaper_);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    active_run = run;
}

RunContainment::~RunContainment() {
    std::optional<CgroupHierarchy> hierarchy;
    {
        std::lock_guard lock(active_mutex);
        hierarchy = active_run.hierarchy;
        active_run = ActiveRun{};
    }
    if (hierarchy && cgroup_) remove_cgroup_tree(*hierarchy, *cgroup_);
    kill_and_reap_children();
    ::prctl(PR_SET_CHILD_SUBREAPER, previous_subreaper_);
}

std::unique_ptr<ProcessCgroup> new_child_cgroup() {
    std::lock_guard lock(active_mutex);
    if (!active_run.active || !active_run.hierarchy) return nullptr;
    return std::make_unique<ProcessCgroup>(*active_run.hierarchy,
                                           active_run.dir / ("c" + std::to_string(++active_run.next_child)));
}

std::set<std::string> run_ids_with_cgroup() {
    static const std::regex kRunCgroup("lc-([0-9a-f]{6})");
    std::set<std::string> ids;
    for (const auto& hierarchy : existing_cgroup_hierarchies()) {
        std::error_code ec;
        for (fs::directory_iterator it(hierarchy.dir, ec), end; !ec && it != end; it.increment(ec)) {
            std::smatch m;
            const auto name = it->path().filename().string();
            // Only cgroups this user may kill: another user's runs are none of its business.
            if (std::regex_match(name, m, kRunCgroup) && ::access(it->path().c_str(), W_OK) == 0) ids.insert(m[1]);
        }
    }
    return ids;
}

std::vector<std::string> remove_run_cgroup(const std::string& run_id) noexcept {
    std::vector<std::string> removed;
    try {
        for (const auto& hierarchy : existing_cgroup_hierarchies()) {
            const auto dir = hierarchy.dir / run_cgroup_name(run_id);
            std::error_code ec;
            if (!fs::exists(dir, ec)) continue;
            const auto processes = cgroup_tree_pids(dir).size();
            if (remove_cgroup_tree(hierarchy, dir))
                removed.push_back("cgroup " + dir.string() + " (" + std::to_string(processes) + " processes killed)");
        }
    } catch (...) {
        // never throws; what is left is found again by the next clean
    }
    return removed;
}

int kill_and_reap_children(std::chrono::milliseconds timeout) noexcept {
    int reaped = 0;
    try {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto children = children_of_this_process();
            if (children.empty()) break;
            for (pid_t child : children) ::kill(child, SIGKILL);
            for (pid_t child : children) {
                pid_t result = 0;
                while ((result = ::waitpid(child, nullptr, WNOHANG)) == 0 &&
                       std::chrono::steady_clock::now() < deadline)
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                if (result == child) ++reaped;
            }
        }
    } catch (...) {}
    return reaped;
}

}  // namespace lockcheck
