#include "checkers/mutual_exclusion.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "checkers/checker_names.hpp"
#include "checkers/evidence_list.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/lock_sessions.hpp"
#include "checkers/transactional_sessions.hpp"
#include "core/counted.hpp"

namespace lockcheck {
namespace {

std::string process_name(int process) { return fmt::format("worker {}", process); }

/// One overlapping pair, as cheap as counting it: the Violation (text and
/// JSON) is built only for the pairs kept as evidence.
struct Overlap {
    std::size_t first = 0, second = 0;  ///< sessions: the earlier holder and the later one
    std::size_t found = 0;              ///< order in which the sweep found it
    bool within_lease = false;
    std::int64_t overlap_ns = 0;
};

/// The graver of two overlaps: one within the lease before one after it
/// expired, then the longer.
bool graver(const Overlap& a, const Overlap& b) {
    return std::tie(a.within_lease, a.overlap_ns) > std::tie(b.within_lease, b.overlap_ns);
}

/// Pairs listed as evidence besides the first ones found and the longest.
constexpr std::size_t kFirstOverlapsKept = 100;
constexpr std::size_t kGravestOverlapsKept = 100;

Violation describe_overlap(const History& history, const LockSession& first, const LockSession& second) {
    const std::int64_t overlap_end = std::min(first.end_ns, second.end_ns);
    const std::int64_t lease_until = first.lease_valid_until(second.start_ns);
    const bool within_lease = second.start_ns < lease_until;
    const bool open_at_end = first.held_at_end && second.held_at_end;

    Violation v;
    v.kind = within_lease ? kOverlapWithinLease : kOverlapLeaseExpired;
    v.ops = {history[first.acquire_invoke].index, history[first.acquire_ok].index, history[second.acquire_ok].index};
    if (first.release_invoke) v.ops.push_back(history[*first.release_invoke].index);
    const double overlap_ms = static_cast<double>(overlap_end - second.start_ns) / 1e6;
    v.description = fmt::format(
        "{} acquired '{}' at op {} while {} still held it since op {} ({}); {}", process_name(second.process),
        second.key, history[second.acquire_ok].index, process_name(first.process), history[first.acquire_ok].index,
        !first.ttl_ms  ? "lock without lease"
        : within_lease ? fmt::format("its lease had at least {:.1f} ms left",
                                     static_cast<double>(lease_until - second.start_ns) / 1e6)
                       : fmt::format("its lease had expired up to {:.1f} ms before",
                                     static_cast<double>(second.start_ns - lease_until) / 1e6),
        open_at_end ? fmt::format("both still held it when the history ended, {:.1f} ms later", overlap_ms)
                    : fmt::format("they overlapped for {:.1f} ms", overlap_ms));
    v.details = {{"key", first.key},
                 {"first_process", first.process},
                 {"second_process", second.process},
                 {"overlap_ms", overlap_ms}};
    if (open_at_end) v.details["open_at_end"] = true;
    if (first.owner) v.details["first_owner"] = *first.owner;
    if (second.owner) v.details["second_owner"] = *second.owner;
    if (first.token) v.details["first_token"] = *first.token;
    if (second.token) v.details["second_token"] = *second.token;
    if (first.ttl_ms) v.details["first_lease_left_ms"] = static_cast<double>(lease_until - second.start_ns) / 1e6;
    return v;
}

/// A session still open in the sweep, ordered by when it ends; one held when
/// the history ended sorts after every session that ended at the last record.
struct OpenSession {
    std::int64_t end_ns = 0;
    bool held_at_end = false;
    std::size_t session = 0;
    auto operator<=>(const OpenSession&) const = default;
    /// Whether it was over by the time a session started at `start_ns`.
    bool ended_by(std::int64_t start_ns) const { return end_ns < start_ns || (end_ns == start_ns && !held_at_end); }
};

}  // namespace

CheckerResult check_mutual_exclusion(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kMutualExclusion);
    auto sessions = extract_sessions(history, partner);
    const auto rolled_back = end_transactional_sessions(history, partner, sessions);

    // Sweep per key in start order, keeping the sessions still open by end time.
    // Every overlapping pair is counted; few are kept (memory stays linear).
    std::map<std::string, std::set<OpenSession>> active;  // key -> sessions still open
    EvidenceList<Overlap, decltype(&graver)> evidence(kFirstOverlapsKept, kGravestOverlapsKept, &graver);
    std::optional<Overlap> longest;
    std::size_t within = 0, expired = 0, harmless = 0;
    for (std::size_t i = 0; i < sessions.size(); ++i) {
        const LockSession& s = sessions[i];
        auto& open = active[s.key];
        while (!open.empty() && open.begin()->ended_by(s.start_ns)) open.erase(open.begin());
        for (const OpenSession& earlier : open) {
            const LockSession& first = sessions[earlier.session];
            Overlap o{earlier.session, i, evidence.total(), s.start_ns < first.lease_valid_until(s.start_ns),
                      std::min(first.end_ns, s.end_ns) - s.start_ns};
            if (!o.within_lease && rolled_back[earlier.session]) {
                ++harmless;  // the earlier holder's transaction committed nothing (transactional_sessions.hpp)
                continue;
            }
            (o.within_lease ? within : expired)++;
            if (!longest || o.overlap_ns > longest->overlap_ns) longest = o;
            evidence.offer(o);
        }
        open.insert({s.end_ns, s.held_at_end, i});
    }
    const std::size_t overlaps = evidence.total();
    auto kept = std::move(evidence).take();
    if (longest && std::none_of(kept.begin(), kept.end(), [&](const Overlap& o) { return o.found == longest->found; }))
        kept.push_back(*longest);
    std::sort(kept.begin(), kept.end(), [](const Overlap& a, const Overlap& b) { return a.found < b.found; });
    for (const Overlap& o : kept)
        result.violations.push_back(describe_overlap(history, sessions[o.first], sessions[o.second]));
    result.unlisted_violations = overlaps - kept.size();
    result.valid = overlaps == 0 ? Validity::Valid : Validity::Invalid;
    result.stats = {{"sessions", sessions.size()},
                    {"overlaps", overlaps},
                    {"overlaps_listed", kept.size()},
                    {"within_lease", within},
                    {"lease_expired", expired},
                    {"rolled_back", harmless},
                    {"longest_overlap_ms", longest ? static_cast<double>(longest->overlap_ns) / 1e6 : 0.0}};
    return result;
}

namespace {

std::string mutual_exclusion_summary(const CheckerResult& r) {
    const auto rolled_back = stat_integer(r, "rolled_back");
    return fmt::format(
        "{} ({} within lease, {} after the lease expired) in {}{}", counted(stat_integer(r, "overlaps"), "overlap"),
        stat_integer(r, "within_lease"), stat_integer(r, "lease_expired"),
        counted(stat_integer(r, "sessions"), "lock session"),
        rolled_back > 0 ? fmt::format("; {} more with a rolled-back transaction (harmless)", rolled_back) : "");
}

}  // namespace

const CheckerDescriptor& mutual_exclusion_checker() {
    static const CheckerDescriptor descriptor{
        checker_name::kMutualExclusion,
        "overlapping lock sessions of one key, each classified by the earlier holder's lease",
        history_is_lock,
        check_mutual_exclusion,
        mutual_exclusion_summary,
        "no two clients held one lock at once, and no update was lost",
        "two clients held the same lock at the same time"};
    return descriptor;
}

}  // namespace lockcheck
