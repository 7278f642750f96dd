#include "clusters/network/run_network_cleanup.hpp"

#include <signal.h>

#include <chrono>
#include <regex>
#include <sstream>
#include <thread>

#include "host/system_command.hpp"

namespace lockcheck {
namespace {

const std::regex kRunName(R"(\blc-([0-9a-f]{6})(-n?[0-9]+)?\b)");

/// Names in `listing` (one object per line, name first after an optional "N: ")
/// that belong to `run_id`.
std::vector<std::string> names_of_run(const std::string& listing, const std::string& run_id) {
    std::vector<std::string> names;
    std::istringstream lines(listing);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, kRunName) && m[1] == run_id) names.push_back(m[0]);
    }
    return names;
}

std::string namespaces_listing() { return run_command({"ip", "netns", "list"}).output; }
std::string links_listing() { return run_command({"ip", "-o", "link", "show"}).output; }

}  // namespace

std::set<std::string> run_ids_with_network() {
    std::set<std::string> ids;
    try {
        for (const auto& listing : {namespaces_listing(), links_listing()})
            for (std::sregex_iterator it(listing.begin(), listing.end(), kRunName), end; it != end; ++it)
                ids.insert((*it)[1]);
    } catch (const CommandError&) {
        // no iproute2: no namespaces either
    }
    return ids;
}

std::vector<std::string> remove_run_network(const std::string& run_id) noexcept {
    std::vector<std::string> removed;
    try {
        for (const auto& ns : names_of_run(namespaces_listing(), run_id)) {
            std::istringstream pids(run_command({"ip", "netns", "pids", ns}).output);
            for (pid_t pid; pids >> pid;) ::kill(pid, SIGKILL);
            if (run_command({"ip", "netns", "del", ns}).exit_code == 0) removed.push_back(ns);
        }
        // The bridge (lc-<id>) last: veths vanish with their namespaces, asynchronously.
        for (const auto& link : names_of_run(links_listing(), run_id))
            if (link == "lc-" + run_id && run_command({"ip", "link", "del", link}).exit_code == 0)
                removed.push_back(link);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (std::chrono::steady_clock::now() < deadline) {
            const auto left = names_of_run(links_listing(), run_id);
            if (left.empty()) break;
            for (const auto& link : left) run_command({"ip", "link", "del", link});  // veths whose namespace is gone
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    } catch (...) {
        // never throws; what is left is found again by the next clean
    }
    return removed;
}

}  // namespace lockcheck
