#include "nemesis/partition.hpp"

#include <algorithm>
#include <random>

#include "clusters/network/firewall.hpp"

namespace lockcheck {

const std::vector<std::string>& partition_modes() {
    static const std::vector<std::string> modes{"isolate-one", "isolate-primary", "majority-minority"};
    return modes;
}

std::optional<std::string> Partition::unavailable_reason() const {
    if (!namespaces_ && !peer_links_) return "it needs network namespaces (run as root)";
    if (std::find(partition_modes().begin(), partition_modes().end(), mode_) == partition_modes().end())
        return "partition_mode '" + mode_ + "' is not isolate-one, isolate-primary or majority-minority";
    return std::nullopt;
}

std::optional<std::vector<std::string>> Partition::start(const FaultEvent& event, const std::stop_token&) {
    auto nodes = topology_.nodes();
    if (nodes.size() < 2) return std::nullopt;
    std::vector<Node*> minority;
    Node* primary = mode_ == "isolate-primary" ? topology_.primary() : nullptr;
    if (primary) {
        minority = {primary};
    } else if (mode_ == "majority-minority") {
        std::mt19937_64 rng(event.pick);
        std::shuffle(nodes.begin(), nodes.end(), rng);
        minority.assign(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(nodes.size() / 2));
    } else {
        minority = {nodes[event.pick % nodes.size()]};
    }
    std::vector<std::string> minority_addresses, majority_addresses;
    for (Node* n : nodes) {
        const bool in_minority = std::find(minority.begin(), minority.end(), n) != minority.end();
        (in_minority ? minority_addresses : majority_addresses).push_back(n->address());
    }
    std::lock_guard lock(mutex_);
    if (!namespaces_) {
        peer_links_->isolate(minority_addresses, majority_addresses);
        cut_ = minority;
    } else {
        for (Node* n : nodes) {
            const bool in_minority = std::find(minority.begin(), minority.end(), n) != minority.end();
            cut_.push_back(n);
            apply_firewall(*n, isolation_rules(in_minority ? majority_addresses : minority_addresses));
        }
    }
    std::vector<std::string> targets;
    for (Node* n : minority) targets.push_back(n->name());
    return targets;
}

void Partition::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!namespaces_) {
        if (!cut_.empty()) peer_links_->heal();
        cut_.clear();
        return;
    }
    for (Node* n : cut_) clear_firewall(*n);
    cut_.clear();
}

}  // namespace lockcheck
