#include "checkers/rolled_back_sessions.hpp"

#include <algorithm>

#include "checkers/worker_resource.hpp"

namespace lockcheck {

RolledBackSessions::RolledBackSessions(const History& history, const std::vector<std::int64_t>& partner) {
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_invoke() || op.f != fn::kWrite || op.type != OpType::Fail || partner[p] == kNoOp) continue;
        if (!worker_owned(history[static_cast<std::size_t>(partner[p])], op)) continue;
        failed_writes_[{op.process, op.key}].push_back(op.time);  // history order is time order
    }
}

bool RolledBackSessions::rolled_back(const LockSession& session) const {
    const auto it = failed_writes_.find({session.process, session.key});
    if (it == failed_writes_.end()) return false;
    const auto first = std::lower_bound(it->second.begin(), it->second.end(), session.start_ns);
    return first != it->second.end() && *first <= session.end_ns;
}

}  // namespace lockcheck
