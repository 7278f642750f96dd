#include "checkers/mutual_exclusion.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

#include "checkers/lock_sessions.hpp"
#include "checkers/transactional_sessions.hpp"

namespace lockcheck {
namespace {

std::string process_name(int process) { return fmt::format("worker {}", process); }

Violation describe_overlap(const History& history, const LockSession& first, const LockSession& second) {
    const std::int64_t overlap_end = std::min(first.end_ns, second.end_ns);
    const std::int64_t lease_until = first.lease_valid_until(second.start_ns);
    const bool within_lease = second.start_ns < lease_until;

    Violation v;
    v.kind = within_lease ? kOverlapWithinLease : kOverlapLeaseExpired;
    v.ops = {history[first.acquire_invoke].index, history[first.acquire_ok].index, history[second.acquire_ok].index};
    if (first.release_invoke) v.ops.push_back(history[*first.release_invoke].index);
    const double overlap_ms = static_cast<double>(overlap_end - second.start_ns) / 1e6;
    v.description = fmt::format(
        "{} acquired '{}' at op {} while {} still held it since op {} ({}); they overlapped for {:.1f} ms",
        process_name(second.process), second.key, history[second.acquire_ok].index, process_name(first.process),
        history[first.acquire_ok].index,
        !first.ttl_ms ? "lock without lease"
        : within_lease
            ? fmt::format("its lease had {:.1f} ms left", static_cast<double>(lease_until - second.start_ns) / 1e6)
            : fmt::format("its lease had expired {:.1f} ms before",
                          static_cast<double>(second.start_ns - lease_until) / 1e6),
        overlap_ms);
    v.details = {{"key", first.key},
                 {"first_process", first.process},
                 {"second_process", second.process},
                 {"overlap_ms", overlap_ms}};
    if (first.owner) v.details["first_owner"] = *first.owner;
    if (second.owner) v.details["second_owner"] = *second.owner;
    if (first.token) v.details["first_token"] = *first.token;
    if (second.token) v.details["second_token"] = *second.token;
    if (first.ttl_ms) v.details["first_lease_left_ms"] = static_cast<double>(lease_until - second.start_ns) / 1e6;
    return v;
}

}  // namespace

CheckerResult check_mutual_exclusion(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = "mutual-exclusion";
    auto sessions = extract_sessions(history, partner);
    const auto rolled_back = end_transactional_sessions(history, partner, sessions);

    // Sweep per key in start order, keeping the sessions still open by end time.
    std::map<std::string, std::multiset<std::pair<std::int64_t, std::size_t>>> active;  // key -> (end, session)
    std::size_t within = 0, expired = 0, harmless = 0;
    double longest_overlap_ms = 0;
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        const LockSession& s = sessions[i];
        auto& open = active[s.key];
        while (!open.empty() && open.begin()->first <= s.start_ns) open.erase(open.begin());
        for (const auto& [end, j] : open) {
            Violation v = describe_overlap(history, sessions[j], s);
            if (v.kind == kOverlapLeaseExpired && rolled_back[j]) {
                ++harmless;  // the earlier holder's transaction committed nothing (transactional_sessions.hpp)
                continue;
            }
            (v.kind == kOverlapWithinLease ? within : expired)++;
            longest_overlap_ms = std::max(longest_overlap_ms, v.details["overlap_ms"].get<double>());
            result.violations.push_back(std::move(v));
        }
        open.emplace(s.end_ns, i);
    }
    result.valid = result.violations.empty() ? Validity::Valid : Validity::Invalid;
    result.stats = {{"sessions", sessions.size()},
                    {"overlaps", result.violations.size()},
                    {"within_lease", within},
                    {"lease_expired", expired},
                    {"rolled_back", harmless},
                    {"longest_overlap_ms", longest_overlap_ms}};
    return result;
}

}  // namespace lockcheck
