#include "core/history.hpp"

#include <string>
#include <unordered_map>

namespace lockcheck {

std::vector<std::int64_t> pair_ops(const History& history) {
    std::vector<std::int64_t> partner(history.size(), kNoOp);
    std::unordered_map<int, std::int64_t> pending;  // process -> position of open invoke
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        auto it = pending.find(op.process);
        if (op.is_invoke()) {
            if (it != pending.end())
                throw HistoryError("op " + std::to_string(op.index) + ": process " + std::to_string(op.process) +
                                   " invokes again before op " + std::to_string(history[it->second].index) +
                                   " completed");
            pending.emplace(op.process, static_cast<std::int64_t>(p));
            continue;
        }
        if (it == pending.end())
            throw HistoryError("op " + std::to_string(op.index) + ": process " + std::to_string(op.process) +
                               " completes an op it never invoked");
        if (history[it->second].f != op.f)
            throw HistoryError("op " + std::to_string(op.index) + ": completion f '" + op.f +
                               "' does not match invoke f '" + history[it->second].f + "'");
        partner[it->second] = static_cast<std::int64_t>(p);
        partner[p] = it->second;
        pending.erase(it);
    }
    return partner;
}

}  // namespace lockcheck
