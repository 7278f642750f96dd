#include "checkers/transactional_sessions.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "checkers/worker_resource.hpp"

namespace lockcheck {
namespace {

struct WriteInvoke {
    std::int64_t time = 0;     ///< of the invoke
    std::int64_t ends_at = 0;  ///< where the session's core ends: the invoke when committed, else the completion
    bool rolled_back = false;  ///< its completion was fail
};

}  // namespace

std::vector<bool> end_transactional_sessions(const History& history, const std::vector<std::int64_t>& partner,
                                             std::vector<LockSession>& sessions) {
    // (process, key) -> its worker-owned write invokes, in time order (history order).
    std::map<std::pair<int, std::string>, std::vector<WriteInvoke>> writes;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!op.is_invoke() || op.f != fn::kWrite) continue;
        const Op* done = partner[p] == kNoOp ? nullptr : &history[static_cast<std::size_t>(partner[p])];
        if (!worker_owned(op, done ? *done : op)) continue;
        const bool committed = done && done->type == OpType::Ok;
        const std::int64_t ends_at = committed || !done ? op.time : done->time;
        writes[{op.process, op.key}].push_back({op.time, ends_at, done && done->type == OpType::Fail});
    }
    std::vector<bool> rolled_back(sessions.size(), false);
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        LockSession& s = sessions[i];
        const auto it = writes.find({s.process, s.key});
        if (it == writes.end()) continue;
        const auto first = std::lower_bound(it->second.begin(), it->second.end(), s.start_ns,
                                            [](const WriteInvoke& w, std::int64_t t) { return w.time < t; });
        if (first == it->second.end() || first->time > s.end_ns) continue;
        s.end_ns = std::min(s.end_ns, first->ends_at);
        s.held_at_end = false;  // its transaction ended at the write
        rolled_back[i] = first->rolled_back;
    }
    return rolled_back;
}

}  // namespace lockcheck
