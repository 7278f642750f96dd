#include "checkers/lock_search.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace lockcheck {
namespace {

constexpr std::int32_t kDead = -2;  // held by an owner that can never release it
constexpr std::uint32_t kRoot = UINT32_MAX;

struct Node {
    std::uint32_t op;
    LinPoint at;
    std::uint32_t parent;
};

struct Config {
    std::int32_t holder = kFree;         ///< kFree, kDead or an owner
    std::int64_t dead_acquire = -1;      ///< a pending acquire that would hold forever (identity: present or not)
    std::vector<std::uint32_t> pending;  ///< sorted op indices, invoked and not linearized
    std::uint32_t path = kRoot;          ///< last linearized op (not part of the identity)
};

struct ConfigHash {
    std::size_t operator()(const Config& c) const {
        std::size_t h = std::hash<std::int64_t>{}(c.holder * 2 + (c.dead_acquire >= 0 ? 1 : 0));
        for (auto p : c.pending) h = h * 1000003u ^ p;
        return h;
    }
};
struct ConfigEq {
    bool operator()(const Config& a, const Config& b) const {
        return a.holder == b.holder && (a.dead_acquire >= 0) == (b.dead_acquire >= 0) && a.pending == b.pending;
    }
};
using ConfigSet = std::unordered_set<Config, ConfigHash, ConfigEq>;

struct Event {
    std::int64_t pos;
    std::uint32_t op;
    bool invoke;
};

class Search {
public:
    Search(const KeyLockOps& key, std::size_t budget) : ops_(key.ops), budget_(budget) {
        last_invoke_.assign(key.owners.size(), -1);
        for (const LockOp& op : ops_) {
            auto& last = last_invoke_[static_cast<std::size_t>(op.owner)];
            last = std::max<std::int64_t>(last, op.invoke);
        }
    }

    SearchOutcome run() {
        std::vector<Event> events;
        for (std::uint32_t i = 0; i < ops_.size(); ++i) {
            events.push_back({ops_[i].invoke, i, true});
            if (ops_[i].definite()) events.push_back({ops_[i].complete, i, false});
        }
        std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.pos < b.pos; });
        SearchOutcome out;
        std::vector<Config> frontier{Config{}};
        for (const Event& ev : events) {
            ConfigSet next;
            for (Config& c : frontier) {
                if (ev.invoke) {
                    invoke(c, ev.op, ev.pos);
                    keep(std::move(c), ev.pos, next);
                } else if (!std::binary_search(c.pending.begin(), c.pending.end(), ev.op)) {
                    keep(std::move(c), ev.pos, next);  // a busy answer already linearized
                } else {
                    complete(c, ev.op, ev.pos, next);
                }
                if (explored_ > budget_) {
                    out.valid = Validity::Unknown;
                    out.note = fmt::format("search budget of {} configurations exhausted at history position {}",
                                           budget_, ev.pos);
                    out.configs = explored_;
                    return out;
                }
            }
            if (next.empty()) {
                out.valid = Validity::Invalid;
                out.failed_op = ev.op;
                out.configs = explored_;
                return out;
            }
            frontier.assign(std::make_move_iterator(next.begin()), std::make_move_iterator(next.end()));
            if (frontier.size() == 1 && frontier[0].holder == kFree && frontier[0].pending.empty()) {
                out.window_start = ev.pos + 1;
                out.free_forever_rep = frontier[0].dead_acquire;
            }
        }
        out.configs = explored_;
        for (std::uint32_t n = frontier[0].path; n != kRoot; n = nodes_[n].parent)
            out.certificate.push_back({nodes_[n].op, nodes_[n].at});
        std::reverse(out.certificate.begin(), out.certificate.end());
        return out;
    }

private:
    const std::vector<LockOp>& ops_;
    std::size_t budget_;
    std::vector<std::int64_t> last_invoke_;
    std::vector<Node> nodes_;
    std::size_t explored_ = 0;

    // The node's number orders the ops linearized at the same position.
    void linearize(Config& c, std::uint32_t op, std::int64_t after) {
        if (nodes_.size() >= kRoot) throw std::length_error("lock search: more linearization steps than 32-bit links");
        const auto node = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back({op, {static_cast<std::int32_t>(after), node}, c.path});
        c.path = node;
    }

    // Busy answers change nothing: linearize every pending one while the lock is held.
    void settle_busy(Config& c, std::int64_t after) {
        if (c.holder == kFree) return;
        auto busy = [&](std::uint32_t p) { return ops_[p].outcome == LockOutcome::Busy; };
        for (auto p : c.pending)
            if (busy(p)) linearize(c, p, after);
        std::erase_if(c.pending, busy);
    }

    void invoke(Config& c, std::uint32_t op, std::int64_t pos) {
        c.pending.insert(std::upper_bound(c.pending.begin(), c.pending.end(), op), op);
        settle_busy(c, pos);
    }

    bool pending_of(const Config& c, std::int32_t owner, LockOpKind kind, std::uint32_t except) const {
        for (auto p : c.pending)
            if (p != except && ops_[p].owner == owner && ops_[p].kind == kind) return true;
        return false;
    }

    // Applies the lock-specific reductions at history position `pos` (see the header).
    void canonicalize(Config& c, std::int64_t pos) const {
        auto finished = [&](std::int32_t owner) { return last_invoke_[static_cast<std::size_t>(owner)] <= pos; };
        if (c.holder >= 0 && finished(c.holder) && !pending_of(c, c.holder, LockOpKind::Release, kRoot))
            c.holder = kDead;
        if (c.holder == kDead) {
            std::erase_if(c.pending, [&](std::uint32_t p) { return !ops_[p].definite(); });
            c.dead_acquire = -1;
            return;
        }
        std::erase_if(c.pending, [&](std::uint32_t p) {
            const LockOp& op = ops_[p];
            if (op.definite() || !finished(op.owner)) return false;
            if (op.kind == LockOpKind::Acquire) {
                if (pending_of(c, op.owner, LockOpKind::Release, p) || pending_of(c, op.owner, LockOpKind::Acquire, p))
                    return false;
                if (c.dead_acquire < 0) c.dead_acquire = p;
                return true;
            }
            return c.holder != op.owner && !pending_of(c, op.owner, LockOpKind::Acquire, p);
        });
    }

    void keep(Config&& c, std::int64_t pos, ConfigSet& into) {
        canonicalize(c, pos);
        ++explored_;
        into.insert(std::move(c));
    }

    // Every configuration reachable from `start` by linearizing pending ops,
    // stopping as soon as `target` has been linearized.
    void complete(const Config& start, std::uint32_t target, std::int64_t pos, ConfigSet& into) {
        const std::int64_t after = pos - 1;
        ConfigSet seen;
        std::vector<Config> stack{start};
        while (!stack.empty() && explored_ <= budget_) {
            Config cur = std::move(stack.back());
            stack.pop_back();
            auto step = [&](Config next) {
                settle_busy(next, after);
                ++explored_;
                if (!std::binary_search(next.pending.begin(), next.pending.end(), target)) {
                    keep(std::move(next), pos, into);
                } else if (seen.insert(next).second) {
                    stack.push_back(std::move(next));
                }
            };
            if (cur.holder == kFree && cur.dead_acquire >= 0) {
                Config next = cur;
                linearize(next, static_cast<std::uint32_t>(cur.dead_acquire), after);
                next.holder = kDead;
                next.dead_acquire = -1;
                step(std::move(next));
            }
            for (std::size_t i = 0; i < cur.pending.size(); ++i) {
                const std::uint32_t p = cur.pending[i];
                const LockOp& op = ops_[p];
                const bool can = op.kind == LockOpKind::Acquire ? op.outcome != LockOutcome::Busy && cur.holder == kFree
                                                                : cur.holder == op.owner;
                if (!can) continue;
                Config next = cur;
                next.pending.erase(next.pending.begin() + static_cast<std::ptrdiff_t>(i));
                linearize(next, p, after);
                next.holder = op.kind == LockOpKind::Acquire ? op.owner : kFree;
                step(std::move(next));
            }
        }
    }
};

}  // namespace

SearchOutcome search_key(const KeyLockOps& key, std::size_t budget) { return Search(key, budget).run(); }

}  // namespace lockcheck
