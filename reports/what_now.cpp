#include "reports/what_now.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "checkers/lock_verdict.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/oversell.hpp"
#include "checkers/release_ownership.hpp"
#include "checkers/renew_after_loss.hpp"
#include "checkers/resource.hpp"
#include "checkers/unique_ids.hpp"

#ifndef LOCKCHECK_SOURCE_DIR
#define LOCKCHECK_SOURCE_DIR "."
#endif

namespace lockcheck {
namespace {

/// What the findings that count toward the verdict show, and under which faults.
struct Findings {
    std::set<std::string> kinds;
    std::set<std::string> faults_at_overlaps_within;  ///< kinds of faults in effect at overlaps within the lease
    double longest_pause_ms = 0;                      ///< of the pause faults in effect at overlaps after the lease
};

/// Whether `band` is a fault that can make a server forget a grant it made
/// (a crash, a disk that lost what it acknowledged) and struck after the
/// earlier holder's acquire and before the later grant of the overlap `mark`:
/// its effect outlasts its band, so it explains the overlap though the band
/// ended before it.
bool forgot_the_grant_before(const FaultBand& band, const ViolationMark& mark) {
    static const std::set<std::string> kForgetting{"kill-restart", "power-loss", "torn-write", "corrupt-file",
                                                   "disk-error"};
    return band.effective() && kForgetting.count(band.kind) > 0 && mark.start_ns <= band.start_ns &&
           band.start_ns <= mark.at_ns;
}

Findings findings_of(const CheckReport& report, const ReportModel& model) {
    Findings f;
    for (const auto& checker : report.checkers)
        if (checker.counts_toward_verdict)
            for (const auto& v : checker.violations) f.kinds.insert(v.kind);
    for (const auto& mark : model.violations) {
        if (mark.advisory) continue;
        if (mark.kind == kOverlapWithinLease)
            for (const auto& band : model.faults)
                if (forgot_the_grant_before(band, mark)) f.faults_at_overlaps_within.insert(band.kind);
        for (auto id : mark.faults)
            for (const auto& band : model.faults) {
                if (band.id != id) continue;
                if (mark.kind == kOverlapWithinLease) f.faults_at_overlaps_within.insert(band.kind);
                if (mark.kind == kOverlapLeaseExpired && band.kind.rfind("pause-", 0) == 0)
                    f.longest_pause_ms =
                        std::max(f.longest_pause_ms, static_cast<double>(band.end_ns - band.start_ns) / 1e6);
            }
    }
    return f;
}

std::string spec_text(const nlohmann::json& spec, const char* field) {
    return spec.is_object() && spec.contains(field) && spec[field].is_string() ? spec[field].get<std::string>() : "";
}

double spec_number(const nlohmann::json& spec, const char* field) {
    return spec.is_object() && spec.contains(field) && spec[field].is_number() ? spec[field].get<double>() : 0;
}

void overlap_within_lease(const Findings& f, const nlohmann::json& spec, std::vector<std::string>& out) {
    const auto& at = f.faults_at_overlaps_within;
    if (at.count("kill-restart") > 0) {
        const auto delay =
            spec.is_object() && spec.contains("restart_delay_ms") ? spec["restart_delay_ms"].dump() : "0";
        out.push_back(fmt::format(
            "A delayed restart: keep a crashed node down for longer than the lease (restart_delay_ms of at least "
            "ttl_ms = "
            "{:.0f} ms; this run used {}), or persistence that survives the crash (persistence \"always\"), so that a "
            "restarted node remembers the locks it granted. Scenario redlock-delayed-restart shows the delay.",
            spec_number(spec, "ttl_ms"), delay));
    }
    if (at.count("power-loss") > 0 || at.count("torn-write") > 0 || at.count("corrupt-file") > 0)
        out.push_back(
            "The server's disk lost writes it had acknowledged (power-loss: what was never synced; torn-write: the "
            "same, with unsynced writes kept in part; corrupt-file: a data file cut, damaged or put back older), so it "
            "came back without a lock it had granted and granted "
            "it again: the overlap within the lease is the server's and its disk's, not the client's. Sync before "
            "acknowledging (Redis appendfsync always, ZooKeeper forceSync, MariaDB innodb_flush_log_at_trx_commit = 1 "
            "and sync_binlog = 1), keep a restarted node out for longer than the lease (restart_delay_ms of at least "
            "ttl_ms), or take the lock from a majority of replicas, so that one disk's loss cannot undo a grant.");
    if (at.count("failover") > 0 || at.count("partition") > 0)
        out.push_back(
            "Replication that answers before the replicas have the write loses grants when a replica takes over: "
            "use a lock service that replicates through consensus before it grants (etcd, ZooKeeper), or make the "
            "grant wait for the replicas.");
    if (at.count("clock-skew") > 0)
        out.push_back(
            "A lease timed by a wall clock ends early when that clock jumps: let the servers' clocks slew "
            "instead of step, or use a lock service that times leases with a monotonic clock.");
    if (at.empty())
        out.push_back(
            "The lock service granted a lock while another client's lease was still running, with no fault in "
            "effect: the recipe itself is unsafe; its page says where.");
}

std::vector<std::string> mitigations(const CheckReport& report, const ReportModel& model, const nlohmann::json& spec) {
    const Findings f = findings_of(report, model);
    const bool fencing = spec.is_object() && spec.value("fencing", false);
    std::vector<std::string> out;
    const bool outlived = f.kinds.count(kOverlapLeaseExpired) > 0;
    const bool resource_hurt = f.kinds.count(kLostUpdate) > 0 || f.kinds.count(kStaleWriteAccepted) > 0;
    const bool any_overlap = outlived || f.kinds.count(kOverlapWithinLease) > 0 || f.kinds.count(kLateGrant) > 0 ||
                             f.kinds.count(kOverlapLeaseUncertain) > 0 || f.kinds.count(kGrantWithoutOwnKey) > 0;
    if ((any_overlap || resource_hurt) && !fencing)
        out.push_back(
            "Fencing: send the token the lock service hands out with every write, and have the protected resource "
            "reject a token older than one it has already seen (\"fencing\": true, or --fencing, for a recipe "
            "that hands out tokens). It is the one mitigation that also covers pauses and delays nobody can bound.");
    if (outlived && f.longest_pause_ms > 0)
        out.push_back(
            fmt::format("A lease longer than the longest pause: a pause of {:.0f} ms outlived a lease of {:.0f} ms. "
                        "This only moves the threshold; a longer pause breaks it again.",
                        f.longest_pause_ms, spec_number(spec, "ttl_ms")));
    else if (outlived)
        out.push_back(
            "A lease longer than the longest critical section, or renewing the lease while the lock is held "
            "(a watchdog): here a holder kept acting after its lease had run out.");
    if (f.kinds.count(kLateGrant) > 0 || f.kinds.count(kExpiredGrant) > 0)
        out.push_back(
            "Your client used grants whose lease had already ended when they arrived (late-grant, expired-grant): "
            "subtract the "
            "time the acquire took, and a clock-drift allowance, from the TTL, and give the lock back instead of "
            "using it when nothing is left, as Redlock's validity check does. Report what is left as valid_ms "
            "(docs/protocol.md) so that lockcheck can tell.");
    if (f.kinds.count(kGrantWithoutOwnKey) > 0)
        out.push_back(
            "Your client took the lock after the server had already removed its own key (grant-without-own-key, "
            "etcd-io/etcd#11456): after waiting, read your own key again and give up when it is gone (its session "
            "expired while it waited) before you return the grant.");
    if (f.kinds.count(kOverlapLeaseUncertain) > 0)
        out.push_back(
            "Some overlaps could not be blamed on either side (overlap-lease-uncertain): the record leaves the "
            "grant instants too wide. Have your client report valid_ms with each grant, or keep acquires short "
            "(a server timeout below the TTL), so that the next run can tell.");
    if (f.kinds.count(kOverlapWithinLease) > 0) overlap_within_lease(f, spec, out);
    if (f.kinds.count(kRenewAfterLoss) > 0)
        out.push_back(
            "Renew only a lock you still hold: check the owner and extend in one atomic step (a Lua script: GET == "
            "owner, then PEXPIRE), and treat a refused renew as the loss of the lock. Never re-create the key.");
    if (f.kinds.count(kReleaseByNonOwner) > 0)
        out.push_back(
            "Release only your own lock: check the owner and delete in one atomic step (a Lua script or a "
            "transaction), never a plain delete.");
    if (f.kinds.count(kOversell) > 0 || f.kinds.count(kStockMismatch) > 0)
        out.push_back(
            "Make the check and the decrement one atomic step: UPDATE ... SET stock = stock - 1 WHERE stock > 0 "
            "(and check the rows it changed), or lock the row in the same transaction (SELECT ... FOR UPDATE).");
    if (f.kinds.count(kDuplicateId) > 0)
        out.push_back(
            "An id counter that forgets acknowledged increments hands the same ids out again: make the counter "
            "durable and replicated before it answers (Redis: appendfsync always, and WAIT for the replicas; "
            "MariaDB: innodb_flush_log_at_trx_commit=1 and semi-synchronous replication), take ids from a "
            "consensus store, or make them unique without the store (a per-node prefix, UUIDs).");
    if (out.empty() && report.valid == Validity::Valid)
        out.push_back(
            "Nothing to fix in this run: no violation under this schedule. One valid run proves little: run more "
            "seeds (lockcheck compare --runs N), longer, or with other faults.");
    if (out.empty()) out.push_back("The checkers below say what they could not decide, and why.");
    return out;
}

}  // namespace

WhatNow what_now(const CheckReport& report, const ReportModel& model, const nlohmann::json& spec,
                 const std::filesystem::path& run_dir) {
    WhatNow w;
    w.description = spec_text(spec, "description");
    w.mitigations = mitigations(report, model, spec);
    const auto recipe = spec_text(spec, "recipe");
    const auto page = std::filesystem::path("docs") / "recipes" / (recipe + ".md");
    std::error_code error;
    if (!recipe.empty() && recipe.find('/') == std::string::npos &&
        std::filesystem::exists(std::filesystem::path(LOCKCHECK_SOURCE_DIR) / page, error)) {
        w.recipe_doc = page.generic_string();
        w.recipe_doc_file = std::filesystem::absolute(std::filesystem::path(LOCKCHECK_SOURCE_DIR) / page, error);
    }
    if (!run_dir.empty())
        w.replay_command = "lockcheck run --replay " + std::filesystem::absolute(run_dir, error).string();
    return w;
}

}  // namespace lockcheck
