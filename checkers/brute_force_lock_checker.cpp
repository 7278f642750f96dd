#include "checkers/brute_force_lock_checker.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lockcheck {
namespace {

struct RefOp {
    bool acquire = false;
    bool busy = false;      ///< acquire answered "held"
    bool required = false;  ///< ok or busy: must be placed; info/unfinished: may be left out
    std::string owner;
    std::size_t invoke = 0;
    std::size_t deadline = SIZE_MAX;  ///< completion position (SIZE_MAX when not required)
};

class KeySearch {
public:
    explicit KeySearch(std::vector<RefOp> ops) : ops_(std::move(ops)) {
        for (std::size_t i = 0; i < ops_.size(); ++i)
            if (ops_[i].required) required_ |= 1u << i;
    }

    bool linearizable() { return place(0, ""); }

private:
    std::vector<RefOp> ops_;
    std::uint32_t required_ = 0;
    std::set<std::pair<std::uint32_t, std::string>> dead_ends_;

    bool place(std::uint32_t placed, const std::string& holder) {  // holder "" = free
        if ((placed & required_) == required_) return true;
        if (dead_ends_.count({placed, holder})) return false;
        for (std::size_t i = 0; i < ops_.size(); ++i) {
            if (placed & (1u << i)) continue;
            bool blocked = false;  // a required op that completed before i was invoked must come first
            for (std::size_t j = 0; j < ops_.size() && !blocked; ++j)
                blocked = !(placed & (1u << j)) && ops_[j].required && ops_[j].deadline < ops_[i].invoke;
            if (blocked) continue;
            const RefOp& op = ops_[i];
            std::string next;
            if (op.acquire && op.busy) {
                if (holder.empty()) continue;
                next = holder;
            } else if (op.acquire) {
                if (!holder.empty()) continue;
                next = op.owner;
            } else if (holder != op.owner) {
                continue;
            }
            if (place(placed | (1u << i), next)) return true;
        }
        dead_ends_.insert({placed, holder});
        return false;
    }
};

}  // namespace

Validity brute_force_lock_check(const History& history, std::size_t max_ops_per_key) {
    std::map<std::string, std::vector<RefOp>> keys;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& inv = history[p];
        if (inv.type != OpType::Invoke || inv.process == kNemesisProcess) continue;
        if (inv.f != "acquire" && inv.f != "release") continue;
        const Op* done = nullptr;
        std::size_t done_at = 0;
        for (std::size_t q = p + 1; q < history.size() && !done; ++q)
            if (history[q].process == inv.process) done = &history[done_at = q];
        RefOp op;
        op.acquire = inv.f == "acquire";
        op.invoke = p;
        if (done && done->type == OpType::Ok) {
            op.required = true;
        } else if (done && done->type == OpType::Fail) {
            if (!op.acquire || done->error != std::string("held")) continue;  // no effect, no constraint
            op.required = op.busy = true;
        }
        if (op.required) op.deadline = done_at;
        // Owners are never empty strings here: "" stands for the free lock.
        op.owner = "o:" + (inv.owner             ? std::string(*inv.owner)
                           : done && done->owner ? std::string(*done->owner)
                                                 : "process " + std::to_string(inv.process));
        keys[inv.key].push_back(std::move(op));
    }
    for (auto& [key, ops] : keys) {
        if (ops.size() > std::min<std::size_t>(max_ops_per_key, 30)) return Validity::Unknown;
        if (!KeySearch(std::move(ops)).linearizable()) return Validity::Invalid;
    }
    return Validity::Valid;
}

}  // namespace lockcheck
