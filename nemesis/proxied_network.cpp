#include "nemesis/proxied_network.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

namespace lockcheck {
namespace {

/// Where workers reach the proxy: they run in the controller's network namespace.
constexpr const char* kListenAddress = "127.0.0.1";

netproxy::ProxyOptions seeded(std::uint64_t seed) {
    netproxy::ProxyOptions options;
    options.seed = seed;
    return options;
}

std::vector<netproxy::Endpoint> parse_upstreams(const std::vector<std::string>& upstreams) {
    std::vector<netproxy::Endpoint> parsed;
    for (const auto& upstream : upstreams) {
        try {
            parsed.push_back(netproxy::parse_endpoint(upstream));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("the fault proxy cannot stand in front of client endpoint '" + upstream +
                                        "': " + e.what());
        }
    }
    return parsed;
}

}  // namespace

ProxiedNetwork::ProxiedNetwork(std::vector<std::string> upstreams, std::uint64_t seed)
    : upstreams_(parse_upstreams(upstreams)), proxy_(seeded(seed)) {}

std::string ProxiedNetwork::upstream(int node) const { return netproxy::to_string(upstreams_.at(node)); }

netproxy::LinkFault ProxiedNetwork::fault_of(int process, int node) const {
    netproxy::LinkFault fault = netproxy::faults::pass();
    if (const auto found = node_faults_.find(node); found != node_faults_.end())
        fault = netproxy::combine(fault, found->second);
    if (const auto found = worker_faults_.find(process); found != worker_faults_.end())
        fault = netproxy::combine(fault, found->second);
    return fault;
}

std::vector<std::string> ProxiedNetwork::endpoints_for(int process) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> endpoints;
    for (int node = 0; node < node_count(); ++node) {
        auto found = links_.find({process, node});
        if (found == links_.end()) {
            const auto info = proxy_.add_link({kListenAddress, 0}, upstreams_[node]);
            proxy_.set_fault(info.id, fault_of(process, node));
            found = links_.emplace(std::pair{process, node}, info).first;
        }
        endpoints.push_back(netproxy::to_string(found->second.listen));
    }
    return endpoints;
}

template <typename Affected>
void ProxiedNetwork::reapply(Affected affected) {
    for (const auto& [key, link] : links_)
        if (affected(key.first, key.second)) proxy_.set_fault(link.id, fault_of(key.first, key.second));
}

void ProxiedNetwork::set_node_fault(int node, const netproxy::LinkFault& fault) {
    netproxy::validate(fault);
    std::lock_guard lock(mutex_);
    node_faults_[node] = fault;
    reapply([node](int, int link_node) { return link_node == node; });
}

void ProxiedNetwork::set_worker_fault(int process, const netproxy::LinkFault& fault) {
    netproxy::validate(fault);
    std::lock_guard lock(mutex_);
    worker_faults_[process] = fault;
    reapply([process](int link_process, int) { return link_process == process; });
}

void ProxiedNetwork::heal_all() noexcept {
    std::lock_guard lock(mutex_);
    node_faults_.clear();
    worker_faults_.clear();
    try {
        for (const auto& [key, link] : links_) proxy_.heal(link.id);
    } catch (const std::exception& e) {  // the proxy stopped: nothing is faulty any more
        spdlog::warn("fault proxy: heal: {}", e.what());
    }
}

void ProxiedNetwork::drop_worker(int process) noexcept {
    std::lock_guard lock(mutex_);
    worker_faults_.erase(process);
    for (auto it = links_.begin(); it != links_.end();) {
        if (it->first.first != process) {
            ++it;
            continue;
        }
        try {
            const auto stats = proxy_.stats(it->second.id);
            dropped_.links += 1;
            dropped_.accepted += stats.accepted;
            dropped_.reset += stats.reset_by_fault;
            dropped_.discarded += stats.to_server.discarded + stats.to_client.discarded;
            proxy_.remove_link(it->second.id);
        } catch (const std::exception& e) {  // the proxy stopped: its sockets are closed already
            spdlog::warn("fault proxy: closing the links of worker {}: {}", process, e.what());
        }
        it = links_.erase(it);
    }
}

std::string ProxiedNetwork::summary() const {
    std::lock_guard lock(mutex_);
    Counts counts = dropped_;
    counts.links += links_.size();
    for (const auto& [key, link] : links_) {
        const auto stats = proxy_.stats(link.id);
        counts.accepted += stats.accepted;
        counts.reset += stats.reset_by_fault;
        counts.discarded += stats.to_server.discarded + stats.to_client.discarded;
    }
    return fmt::format("proxy: {} links, {} connections, {} reset by faults, {} bytes discarded", counts.links,
                       counts.accepted, counts.reset, counts.discarded);
}

}  // namespace lockcheck
