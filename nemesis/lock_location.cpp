#include "nemesis/lock_location.hpp"

#include <map>

#include "clusters/servers/redis_admin.hpp"
#include "clusters/servers/redis_node.hpp"
#include "core/interruptible_sleep.hpp"

namespace lockcheck {
namespace {

/// Every lock key and its owner, flat: a string key (not a ":fence"
/// counter) and its value, or a hash key (a re-entrant lock, recipe
/// redis-reentrant-hash: one field per owner) and its first field. An id
/// counter (recipe redis-incr-ids: recipes/id_counter_key.hpp) changes
/// with every id, so it reports the fixed owner "ids": its placement is
/// where the workload's ids come from, and it holds still between two polls.
constexpr const char* kDumpScript =
    "local r = {} "
    "for _, k in ipairs(redis.call('KEYS', '*')) do "
    "  local t = redis.call('TYPE', k).ok "
    "  if t == 'string' and not string.find(k, ':fence', 1, true) then "
    "    table.insert(r, k) "
    "    if string.sub(k, -4) == ':ids' then table.insert(r, 'ids') else table.insert(r, redis.call('GET', k)) end "
    "  elseif t == 'hash' then "
    "    local fields = redis.call('HKEYS', k) "
    "    if fields[1] then table.insert(r, k) table.insert(r, fields[1]) end "
    "  end "
    "end "
    "return r";

/// (key, owner) -> nodes storing it.
std::map<std::pair<std::string, std::string>, std::vector<Node*>> locks_by_owner(const std::vector<Node*>& nodes,
                                                                                 const std::string& password) {
    std::map<std::pair<std::string, std::string>, std::vector<Node*>> owners;
    for (Node* node : nodes) {
        auto pairs = redis_admin_command(node->address(), kRedisPort, password, {"EVAL", kDumpScript, "0"},
                                         std::chrono::milliseconds(100));
        if (!pairs) continue;
        for (size_t i = 0; i + 1 < pairs->size(); i += 2) owners[{(*pairs)[i], (*pairs)[i + 1]}].push_back(node);
    }
    return owners;
}

}  // namespace

std::vector<Node*> nodes_of_current_lock(const std::vector<Node*>& nodes, const std::string& password,
                                         std::chrono::milliseconds patience, const std::stop_token& stop) {
    const std::size_t bare_majority = nodes.size() / 2 + 1;
    const auto give_up = std::chrono::steady_clock::now() + patience;
    std::map<std::pair<std::string, std::string>, std::vector<Node*>> previous;
    while (!stop.stop_requested()) {
        // Only placements seen twice in a row count: an acquire or a release
        // in progress passes through a bare majority for a moment.
        auto current = locks_by_owner(nodes, password);
        std::vector<Node*> best;
        for (const auto& [lock, holders] : current) {
            auto before = previous.find(lock);
            if (before == previous.end() || before->second != holders) continue;
            if (holders.size() == bare_majority) return holders;
            if (holders.size() > best.size()) best = holders;
        }
        if (!best.empty() || std::chrono::steady_clock::now() >= give_up) return best;
        previous = std::move(current);
        interruptible_sleep_for(stop, std::chrono::milliseconds(5));
    }
    return {};
}

std::vector<Node*> LockLocator::nodes_of_current_lock(std::chrono::milliseconds patience,
                                                      const std::stop_token& stop) const {
    if (auto named = topology_.lock_nodes()) return *named;
    return lockcheck::nodes_of_current_lock(topology_.nodes(), password_, patience, stop);
}

}  // namespace lockcheck
