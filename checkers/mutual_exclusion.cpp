#include "checkers/mutual_exclusion.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "checkers/checker_names.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/lock_sessions.hpp"
#include "checkers/overlap_blame.hpp"
#include "checkers/overlap_sweep.hpp"
#include "checkers/transactional_sessions.hpp"
#include "core/counted.hpp"

namespace lockcheck {
namespace {

std::string process_name(int process) { return fmt::format("worker {}", process); }

double ms_between(std::int64_t from_ns, std::int64_t to_ns) { return static_cast<double>(to_ns - from_ns) / 1e6; }

/// What the record proves about the two leases, in the words of the class.
std::string lease_story(const History& history, const LockSession& first, const LockSession& second,
                        const OverlapBlame& blame) {
    const std::int64_t second_invoke = history[second.acquire_invoke].time;
    switch (blame.blame) {
        case Blame::LateGrant: {
            const LockSession& late = blame.later_was_late ? second : first;
            const Op& ok = history[late.acquire_ok];
            return fmt::format("{}'s grant (op {}) arrived {:.1f} ms after its own lease had certainly ended{}",
                               process_name(late.process), ok.index,
                               ms_between(late.lease_terms.front().end_hi(), late.start_ns),
                               ok.valid_ms ? fmt::format(" (it reported valid_ms {})", *ok.valid_ms) : "");
        }
        case Blame::WithinLease:
            return !first.ttl_ms ? "lock without lease"
                                 : fmt::format("its lease had at least {:.1f} ms left",
                                               ms_between(second.start_ns, blame.first_valid_until));
        case Blame::LeaseExpired:
            return fmt::format("its lease had certainly expired, {:.1f} ms or more before the acquire was invoked",
                               ms_between(blame.first_over_by, second_invoke));
        default:
            return fmt::format(
                "its lease ended between {:.1f} ms before and {:.1f} ms "
                "after the acquire was invoked, and the grant came within the {:.1f} ms the acquire "
                "took",
                ms_between(blame.first_valid_until, second_invoke), ms_between(second_invoke, blame.first_over_by),
                ms_between(second_invoke, second.start_ns));
    }
}

Violation describe_overlap(const History& history, const LockSession& first, const LockSession& second) {
    const std::int64_t overlap_end = std::min(first.end_ns, second.end_ns);
    const OverlapBlame blame = classify_overlap(first, second);
    const bool open_at_end = first.held_at_end && second.held_at_end;

    Violation v;
    v.kind = std::string(blame_class(blame.blame).kind);
    v.ops = {history[first.acquire_invoke].index, history[first.acquire_ok].index, history[second.acquire_ok].index};
    if (first.release_invoke) v.ops.push_back(history[*first.release_invoke].index);
    const double overlap_ms = ms_between(second.start_ns, overlap_end);
    v.description = fmt::format(
        "{} acquired '{}' at op {} while {} still held it since op {} ({}); {}. Whose fault: {}",
        process_name(second.process), second.key, history[second.acquire_ok].index, process_name(first.process),
        history[first.acquire_ok].index, lease_story(history, first, second, blame),
        open_at_end ? fmt::format("both still held it when the history ended, {:.1f} ms later", overlap_ms)
                    : fmt::format("they overlapped for {:.1f} ms", overlap_ms),
        blame_class(blame.blame).whose);
    v.details = {{"key", first.key},
                 {"first_process", first.process},
                 {"second_process", second.process},
                 {"overlap_ms", overlap_ms},
                 {"blame", blame_class(blame.blame).whose}};
    if (open_at_end) v.details["open_at_end"] = true;
    if (first.owner) v.details["first_owner"] = *first.owner;
    if (second.owner) v.details["second_owner"] = *second.owner;
    if (first.token) v.details["first_token"] = *first.token;
    if (second.token) v.details["second_token"] = *second.token;
    if (first.ttl_ms) {
        v.details["first_lease_left_ms"] = ms_between(second.start_ns, blame.first_valid_until);
        v.details["first_lease_over_by_ms"] = ms_between(second.start_ns, blame.first_over_by);
    }
    if (blame.blame == Blame::LateGrant) v.details["late_process"] = (blame.later_was_late ? second : first).process;
    if (const Op& ok = history[second.acquire_ok]; ok.valid_ms) v.details["second_valid_ms"] = *ok.valid_ms;
    return v;
}

}  // namespace

CheckerResult check_mutual_exclusion(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kMutualExclusion);
    auto sessions = extract_sessions(history, partner);
    const auto rolled_back = end_transactional_sessions(history, partner, sessions);

    // Every overlapping pair is counted; few are kept (memory stays linear).
    const OverlapTally tally = sweep_overlaps(sessions, rolled_back);
    const std::size_t overlaps = tally.overlaps;
    for (const Overlap& o : tally.kept)
        result.violations.push_back(describe_overlap(history, sessions[o.first], sessions[o.second]));
    result.unlisted_violations = overlaps - tally.kept.size();
    result.valid = overlaps == 0 ? Validity::Valid : Validity::Invalid;
    result.stats = {{"sessions", sessions.size()},
                    {"overlaps", overlaps},
                    {"overlaps_listed", tally.kept.size()},
                    {"rolled_back", tally.harmless},
                    {"longest_overlap_ms", tally.longest ? static_cast<double>(tally.longest->overlap_ns) / 1e6 : 0.0}};
    for (const BlameClass& c : blame_classes())
        if (swept_overlap_class(c))
            result.stats[std::string(c.stat)] = tally.by_blame[static_cast<std::size_t>(c.blame)];
    return result;
}

namespace {

std::string mutual_exclusion_summary(const CheckerResult& r) {
    const auto rolled_back = stat_integer(r, "rolled_back");
    std::string classes;
    for (const BlameClass& c : blame_classes()) {
        if (!is_overlap_class(c)) continue;  // the servers' record adds the stats of the classes it gives
        const auto n = stat_integer(r, c.stat);
        // The two classes every report has always shown, and any other that occurred.
        if (n == 0 && c.blame != Blame::WithinLease && c.blame != Blame::LeaseExpired) continue;
        classes += fmt::format("{}{} {}", classes.empty() ? "" : ", ", n, c.words);
    }
    return fmt::format(
        "{} ({}) in {}{}", counted(stat_integer(r, "overlaps"), "overlap"), classes,
        counted(stat_integer(r, "sessions"), "lock session"),
        rolled_back > 0 ? fmt::format("; {} more with a rolled-back transaction (harmless)", rolled_back) : "");
}

}  // namespace

const CheckerDescriptor& mutual_exclusion_checker() {
    static const CheckerDescriptor descriptor{
        checker_name::kMutualExclusion,
        "overlapping lock sessions of one key, each blamed by what the record proves of both leases",
        history_is_lock,
        check_mutual_exclusion,
        mutual_exclusion_summary,
        "no two clients held one lock at once, and no update was lost",
        "two clients held the same lock at the same time"};
    return descriptor;
}

}  // namespace lockcheck
