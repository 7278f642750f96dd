#include "nemesis/power_loss.hpp"

#include <algorithm>

#include "clusters/power_loss.hpp"

namespace lockcheck {
namespace {

template <typename T>
bool contains(const std::vector<T>& items, const T& item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace

std::vector<Node*> power_loss_targets(PowerLoss::Reach reach, const std::vector<Node*>& capable,
                                      const std::vector<Node*>& lock_nodes, std::uint64_t pick) {
    std::vector<Node*> usable;
    for (Node* n : lock_nodes)
        if (contains(capable, n)) usable.push_back(n);
    if (usable.empty()) return {};
    if (reach == PowerLoss::Reach::All) return capable;
    const std::size_t first = pick % usable.size();
    std::rotate(usable.begin(), usable.begin() + static_cast<std::ptrdiff_t>(first), usable.end());
    if (reach == PowerLoss::Reach::One) return {usable.front()};
    const std::size_t majority = capable.size() / 2 + 1;
    std::vector<Node*> targets(usable.begin(),
                               usable.begin() + static_cast<std::ptrdiff_t>(std::min(majority, usable.size())));
    for (Node* n : capable)
        if (targets.size() < majority && !contains(targets, n)) targets.push_back(n);
    return targets;
}

std::optional<std::string> PowerLoss::unavailable_reason() const {
    if (!power_loss_nodes(locator_.topology()).empty()) return std::nullopt;
    return "the nodes keep no data on the lose-unsynced filesystem";
}

std::optional<std::vector<std::string>> PowerLoss::start(const FaultEvent& event, const std::stop_token& stop) {
    std::optional<int> fresh_holder;
    if (after_grant_ms_ && !(fresh_holder = await_fresh_grant(workers_, event.pick, *after_grant_ms_, stop)))
        return std::nullopt;
    const auto targets = power_loss_targets(reach_, power_loss_nodes(locator_.topology()),
                                            locator_.nodes_of_current_lock(std::chrono::seconds(5), stop), event.pick);
    if (targets.empty()) return std::nullopt;
    std::vector<PowerLossSummary> lost;
    restart_.take_down(targets, [&](const std::vector<Node*>& nodes) {
        lost = cut_power(nodes, unsyncedfs::Tear{tear_, event.pick});
    });
    std::vector<std::string> names;
    for (const Node* n : targets) names.push_back(n->name());
    for (std::size_t i = 0; tear_ != unsyncedfs::TearMode::None && i < lost.size(); ++i)
        names.push_back(targets[i]->name() + ": " + std::to_string(lost[i].files_torn) + " file(s) torn (" +
                        unsyncedfs::to_string(tear_) + ")");
    if (fresh_holder)
        names.push_back(std::to_string(*after_grant_ms_) + " ms after the grant to worker " +
                        std::to_string(*fresh_holder));
    return names;
}

}  // namespace lockcheck
