// Lease bounds: what a history proves about when a lease began and ended,
// never the tightest guess (docs/checkers.md, "Whose fault an overlap is").
//
// A lease is granted at some instant between its acquire's (or renew's)
// invoke and its ok, so it ends somewhere in
//     [invoke + ttl - 1 ms, grant_hi + ttl + 1 ms]
// where grant_hi is the ok's time, or earlier when the record proves the
// reply was held back (a slow-reply fault holds back every reply to its
// target for reply_delay_ms: a grant that arrived in that window happened
// at least that long before its ok). The millisecond on each side is the
// expiry granularity of Redis and most lock services. A client that reports
// valid_ms (what it had left of the lease when the grant arrived) ends its
// lease, by its own account, no later than its ok + valid_ms.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>

#include "core/history.hpp"

namespace lockcheck {

/// Redis and most lock services keep expiry times in whole milliseconds, so a
/// lease can end up to this much before invoke + ttl, or after grant + ttl.
inline constexpr std::int64_t kLeaseGranularityNs = 1'000'000;
inline constexpr std::int64_t kNoLeaseBound = std::numeric_limits<std::int64_t>::max();

/// One acquire or renew that granted (or may have granted) a lease.
struct LeaseTerm {
    std::int64_t invoke_ns = 0;    ///< the grant happened no earlier
    std::int64_t grant_hi_ns = 0;  ///< and no later (kNoLeaseBound: no ok, it may take effect any time)
    std::int64_t lease_ns = 0;     ///< the ttl asked for, in ns
    /// The client's own account of when the lease ends: its ok + valid_ms
    /// (kNoLeaseBound when it reported none).
    std::int64_t client_end_ns = kNoLeaseBound;
    bool definite = true;  ///< answered ok; false: info or no answer (it may or may not have taken effect)

    /// The lease certainly lasted until here (when definite).
    std::int64_t end_lo() const { return invoke_ns + lease_ns - kLeaseGranularityNs; }
    /// The lease certainly ended by here, were it extended by nothing else.
    std::int64_t end_hi() const;
};

/// The slow-reply windows of a history, as the nemesis recorded them
/// (start-fault completions with `reply_delay_ms` and a target "worker N",
/// until the same fault's stop-fault invoke). Feed it every op in history
/// order; it answers for the ops seen so far.
class ReplyDelays {
public:
    void observe(const Op& op);
    /// The latest instant a grant answered by an ok at `ok_ns` can have
    /// happened, for an op of `process` invoked at `invoke_ns`: ok_ns less
    /// the delay when the op ran wholly inside a window (invoked after the
    /// fault was in place, answered before its heal began), else ok_ns.
    /// Call it when the ok is observed.
    std::int64_t grant_upper_bound(int process, std::int64_t invoke_ns, std::int64_t ok_ns) const;
    /// How long a window now open holds back `process`'s replies (ns; 0 when
    /// none is open): a reply the proxy reads before the heal keeps its delay.
    std::int64_t held_back_ns(int process) const;

private:
    struct Window {
        std::int64_t from_ns = 0;
        std::int64_t delay_ns = 0;
        std::int64_t fault_id = 0;
    };
    std::map<int, Window> open_;  ///< process -> its window now open
};

/// The term an acquire or renew invoked by `invoke` and answered by
/// `completion` (nullptr: no answer yet) grants. `grant_hi_ns` is the
/// ReplyDelays bound for a definite answer.
LeaseTerm lease_term(const Op& invoke, const Op* completion, std::int64_t ttl_ms, std::int64_t grant_hi_ns);

}  // namespace lockcheck
