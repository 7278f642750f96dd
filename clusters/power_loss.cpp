#include "clusters/power_loss.hpp"

#include "core/interruptible_sleep.hpp"

namespace lockcheck {

std::vector<Node*> power_loss_nodes(Topology& topology) {
    std::vector<Node*> out;
    for (Node* n : topology.nodes())
        if (n->can_lose_power()) out.push_back(n);
    return out;
}

std::vector<PowerLossSummary> cut_power(const std::vector<Node*>& nodes, const unsyncedfs::Tear& tear) {
    for (Node* n : nodes)
        if (!n->can_lose_power())
            throw std::logic_error("node " + n->name() + " keeps no data on the lose-unsynced filesystem");
    for (Node* n : nodes) n->kill();  // every server is gone before any data is
    std::vector<PowerLossSummary> lost;
    std::optional<UnsyncedFsError> first_failure;
    for (Node* n : nodes) {
        try {
            lost.push_back(n->lose_power(tear));
        } catch (const UnsyncedFsError& e) {
            lost.emplace_back();
            if (!first_failure) first_failure = e;
        }
    }
    if (first_failure) throw *first_failure;
    return lost;
}

void restore_power(const std::vector<Node*>& nodes) {
    std::optional<NodeStartError> first_failure;
    for (Node* n : nodes) {
        try {
            n->start();
        } catch (const NodeStartError& e) {
            if (!first_failure) first_failure = e;
        }
    }
    if (first_failure) throw *first_failure;
}

std::optional<std::vector<PowerLossSummary>> power_loss(const std::vector<Node*>& nodes,
                                                        std::chrono::milliseconds down_for,
                                                        const std::stop_token& interrupt) {
    auto lost = cut_power(nodes);
    if (!interruptible_sleep_for(interrupt, down_for)) return std::nullopt;
    restore_power(nodes);
    return lost;
}

void make_data_durable(Topology& topology) {
    for (Node* n : topology.nodes()) n->make_data_durable();
}

std::optional<std::string> data_filesystem_failure(Topology& topology) {
    for (Node* n : topology.nodes())
        if (auto failure = n->data_failure()) return failure;
    return std::nullopt;
}

}  // namespace lockcheck
