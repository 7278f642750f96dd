#include "core/history.hpp"

#include <string>

namespace lockcheck {

namespace {

/// OpPairing::pending_'s value for a process with no open invoke.
constexpr std::size_t kNothingOpen = static_cast<std::size_t>(-1);

}  // namespace

std::int64_t OpPairing::add(const History& history, std::size_t position) {
    const Op& op = history[position];
    // Every process keeps its entry (kNothingOpen between ops): no node is
    // allocated and freed per op, which cost more than the pairing itself.
    std::size_t& open = pending_.try_emplace(op.process, kNothingOpen).first->second;
    const auto fault = [&](const std::string& what) {
        return HistoryError("op " + std::to_string(op.index) + ": " + what);
    };
    if (op.is_invoke()) {
        if (open != kNothingOpen)
            throw fault("process " + std::to_string(op.process) + " invokes again before op " +
                        std::to_string(history[open].index) + " completed");
        open = position;
        return kNoOp;
    }
    if (open == kNothingOpen)
        throw fault("process " + std::to_string(op.process) + " completes an op it never invoked");
    const Op& invoke = history[open];
    if (invoke.f != op.f) throw fault("completion f '" + op.f + "' does not match invoke f '" + invoke.f + "'");
    if (invoke.key != op.key)
        throw fault("completion key '" + op.key + "' does not match invoke key '" + invoke.key + "'");
    const auto invoke_position = static_cast<std::int64_t>(open);
    open = kNothingOpen;
    return invoke_position;
}

std::vector<std::int64_t> pair_ops(const History& history) {
    std::vector<std::int64_t> partner(history.size(), kNoOp);
    OpPairing pairing;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const std::int64_t invoke = pairing.add(history, p);
        if (invoke == kNoOp) continue;
        partner[static_cast<std::size_t>(invoke)] = static_cast<std::int64_t>(p);
        partner[p] = invoke;
    }
    return partner;
}

}  // namespace lockcheck
