#include "checkers/lease_bounds.hpp"

#include <algorithm>
#include <string>

#include "checkers/fault_targets.hpp"

namespace lockcheck {

std::int64_t LeaseTerm::end_hi() const {
    if (grant_hi_ns == kNoLeaseBound) return kNoLeaseBound;
    return std::min(grant_hi_ns + lease_ns + kLeaseGranularityNs, client_end_ns);
}

void ReplyDelays::observe(const Op& op) {
    if (!op.is_nemesis() || !op.value.is_object()) return;
    const auto id = op.value.find("id");
    if (id == op.value.end() || !id->is_number_integer()) return;
    if (op.f == fn::kStopFault && op.is_invoke()) {
        std::erase_if(open_, [&](const auto& entry) { return entry.second.fault_id == id->get<std::int64_t>(); });
        return;
    }
    if (op.f != fn::kStartFault || op.is_invoke() || op.error) return;
    const auto delay = op.value.find("reply_delay_ms");
    if (delay == op.value.end() || !delay->is_number_integer() || delay->get<std::int64_t>() <= 0 ||
        delay->get<std::int64_t>() > kMaxLeaseMs)
        return;
    if (const auto process = single_targeted_worker(op.value))
        open_[*process] = {op.time, delay->get<std::int64_t>() * 1'000'000, id->get<std::int64_t>()};
}

std::int64_t ReplyDelays::grant_upper_bound(int process, std::int64_t invoke_ns, std::int64_t ok_ns) const {
    const auto it = open_.find(process);
    if (it == open_.end() || invoke_ns < it->second.from_ns) return ok_ns;
    return std::max(invoke_ns, ok_ns - it->second.delay_ns);
}

std::int64_t ReplyDelays::held_back_ns(int process) const {
    const auto it = open_.find(process);
    return it == open_.end() ? 0 : it->second.delay_ns;
}

LeaseTerm lease_term(const Op& invoke, const Op* completion, std::int64_t ttl_ms, std::int64_t grant_hi_ns) {
    LeaseTerm term;
    term.invoke_ns = invoke.time;
    term.lease_ns = ttl_ms * 1'000'000;
    term.definite = completion && completion->type == OpType::Ok;
    term.grant_hi_ns = term.definite ? grant_hi_ns : kNoLeaseBound;
    if (term.definite && completion->valid_ms)
        term.client_end_ns = completion->time + *completion->valid_ms * 1'000'000;
    return term;
}

}  // namespace lockcheck
