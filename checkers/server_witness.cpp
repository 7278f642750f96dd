#include "checkers/server_witness.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "checkers/checker_names.hpp"
#include "checkers/renew_after_loss.hpp"
#include "checkers/zk_witness.hpp"

namespace lockcheck {
namespace {

std::string placed(const EtcdOrder& order, std::int64_t revision) { return placed_words(order.clock(), revision); }

nlohmann::json life_details(const KeyLife& life) {
    return {{"key", life.key},
            {"lease", life.lease},
            {"created", life.created},
            {"deleted", life.deleted},
            {"end", std::string(key_end_words(life.end))}};
}

/// (a) for `owner`: its own key was gone at its grant's revision.
std::optional<WitnessDecision> grant_without_own_key(const EtcdOrder& order, std::string_view owner) {
    const KeyLife* life = order.life_of(owner);
    const auto grant = order.grant_revision(owner);
    if (!life || !grant || life->deleted == 0 || life->deleted > *grant) return std::nullopt;
    WitnessDecision d{
        Blame::GrantWithoutOwnKey,
        fmt::format("{}'s own key {} was deleted at revision {}{}, {}, and its grant was decided by a "
                    "read at revision {}",
                    owner, life->key, life->deleted, placed(order, life->deleted), key_end_words(life->end), *grant)};
    d.details = {{"owner", owner}, {"grant_revision", *grant}, {"own_key", life_details(*life)}};
    return d;
}

}  // namespace

std::optional<WitnessDecision> decide_overlap(const EtcdOrder& order, std::string_view first, std::string_view second) {
    for (const std::string_view holder : {second, first})
        if (auto d = grant_without_own_key(order, holder)) return d;
    const KeyLife* earlier = order.life_of(first);
    const auto later_grant = order.grant_revision(second);
    if (!earlier || !later_grant || earlier->end != KeyEnd::Expired || earlier->deleted > *later_grant)
        return std::nullopt;
    WitnessDecision d{
        Blame::LeaseExpired,
        fmt::format("{}'s key {} expired on the server at revision {}{}, before {}'s grant was decided "
                    "at revision {}",
                    first, earlier->key, earlier->deleted, placed(order, earlier->deleted), second, *later_grant)};
    d.details = {{"owner", first}, {"later_grant_revision", *later_grant}, {"first_key", life_details(*earlier)}};
    return d;
}

namespace {

/// `v` re-decided as `d`: its kind, its blame, and the servers' order in its words.
void redecide(Violation& v, const WitnessDecision& d) {
    const BlameClass& now = blame_class(d.blame);
    const std::string was = std::string(blame_class(Blame::Uncertain).whose);
    const auto cut = v.description.rfind(" Whose fault: ");
    v.description = (cut == std::string::npos ? v.description : v.description.substr(0, cut)) +
                    fmt::format(" The servers' order: {}. Whose fault: {}", d.fact, now.whose);
    v.kind = std::string(now.kind);
    v.details["blame"] = now.whose;
    v.details["server_order"] = d.details;
    v.details["server_order"]["fact"] = d.fact;
    v.details["undecided_without_record"] = was;
}

CheckerResult* mutual_exclusion_result(CheckReport& report) {
    for (auto& c : report.checkers)
        if (c.name == checker_name::kMutualExclusion) return &c;
    return nullptr;
}

nlohmann::json record_summary(const ServerRecord& record) {
    nlohmann::json out = {{"server", record.server}, {"read", record.read}};
    if (!record.read) {
        out["why"] = record.why;
        return out;
    }
    out[record.server == "zookeeper" ? "zxid" : "revision"] = record.revision;
    out["events"] = record.size();
    out["seconds"] = record.seconds;
    return out;
}

using OverlapDecider = std::function<std::optional<WitnessDecision>(std::string_view first, std::string_view second)>;

/// Re-decides the listed undecided overlaps of `me`; returns {undecided, decided per class}.
nlohmann::json decide_listed(const OverlapDecider& decide, CheckerResult& me) {
    std::size_t undecided = 0;
    nlohmann::json decided_as = nlohmann::json::object();
    for (Violation& v : me.violations) {
        if (v.kind != kOverlapLeaseUncertain) continue;
        ++undecided;
        const auto first = v.details.value("first_owner", std::string());
        const auto second = v.details.value("second_owner", std::string());
        const auto d = decide(first, second);
        if (!d) continue;
        redecide(v, *d);
        const BlameClass& now = blame_class(d->blame);
        decided_as[std::string(now.kind)] = decided_as.value(std::string(now.kind), 0) + 1;
        me.stats[std::string(blame_class(Blame::Uncertain).stat)] =
            me.stats.value(std::string(blame_class(Blame::Uncertain).stat), 0) - 1;
        me.stats[std::string(now.stat)] = me.stats.value(std::string(now.stat), 0) + 1;
    }
    std::size_t decided = 0;
    for (const auto& [kind, n] : decided_as.items()) decided += n.get<std::size_t>();
    return {{"undecided", undecided}, {"decided", decided}, {"decided_as", decided_as}};
}

/// (c): every renew answered ok whose reply's revision is at or after its
/// key's expiry on the server, as violations.
std::vector<Violation> renews_after_expiry(const History& history, const std::vector<std::int64_t>& partner,
                                           const EtcdOrder& order) {
    std::vector<Violation> out;
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& ok = history[p];
        if (ok.f != fn::kRenew || ok.type != OpType::Ok || ok.is_nemesis() || !ok.owner || partner[p] == kNoOp)
            continue;
        const KeyLife* life = order.life_of(*ok.owner);
        const auto revision = value_integer(ok, witness_field::kRevision);
        if (!life || !revision || life->end != KeyEnd::Expired || life->deleted > *revision) continue;
        const Op& invoke = history[static_cast<std::size_t>(partner[p])];
        const BlameClass& c = blame_class(Blame::RenewAfterExpiry);
        Violation v;
        v.kind = std::string(c.kind);
        v.ops = {invoke.index, ok.index};
        v.description = fmt::format(
            "worker {} renewed '{}' (op {}) and was answered ok with revision {}, but its key {} had expired on the "
            "server at revision {}{}. Whose fault: {}",
            ok.process, std::string_view(ok.key.view()), ok.index, *revision, life->key, life->deleted,
            placed(order, life->deleted), c.whose);
        v.details = {{"key", std::string(ok.key.view())}, {"process", ok.process},          {"owner", *ok.owner},
                     {"renew_revision", *revision},       {"own_key", life_details(*life)}, {"blame", c.whose}};
        out.push_back(std::move(v));
    }
    return out;
}

/// Withdraws the renew-after-loss findings whose taker's grant came after
/// its own key was gone (a): in the servers' order it was never granted, so
/// the holder lost nothing to it. Returns how many.
std::size_t withdraw_renews_lost_to_no_grant(const EtcdOrder& order, CheckerResult& renews) {
    const auto before = renews.violations.size();
    std::erase_if(renews.violations, [&](const Violation& v) {
        return v.kind == kRenewAfterLoss && grant_without_own_key(order, v.details.value("taker_owner", ""));
    });
    const auto withdrawn = before - renews.violations.size();
    if (withdrawn == 0) return 0;
    const auto left = renews.stats.value("renews_after_loss", std::size_t{0}) - withdrawn;
    renews.stats["renews_after_loss"] = left;
    renews.stats["summary"] = renew_after_loss_summary(left, renews.stats.value("renews_ok", std::int64_t{0}));
    return withdrawn;
}

/// The renew-after-loss result re-decided: findings lost to a grant the
/// servers never gave withdrawn, renews_after_expiry added (its verdict
/// follows what is left).
void redecide_renews(const History& history, const std::vector<std::int64_t>& partner, const EtcdOrder& order,
                     CheckReport& report) {
    auto found = renews_after_expiry(history, partner, order);
    report.witness["renews_after_expiry"] = found.size();
    report.witness["renews_after_loss_withdrawn"] = 0;
    const auto renews = std::find_if(report.checkers.begin(), report.checkers.end(),
                                     [](const CheckerResult& c) { return c.name == checker_name::kRenewAfterLoss; });
    if (renews == report.checkers.end()) return;
    report.witness["renews_after_loss_withdrawn"] = withdraw_renews_lost_to_no_grant(order, *renews);
    if (!found.empty()) renews->stats[std::string(blame_class(Blame::RenewAfterExpiry).stat)] = found.size();
    for (auto& v : found) renews->violations.push_back(std::move(v));
    renews->valid = renews->violations.empty() ? Validity::Valid : Validity::Invalid;
}

}  // namespace

void apply_server_witness(const History& history, const std::vector<std::int64_t>& partner, const ServerRecord* record,
                          CheckReport& report) {
    if (!record) return;
    report.witness = record_summary(*record);
    if (!record->read) return;
    OverlapDecider decide;
    std::optional<EtcdOrder> etcd;
    std::optional<ZkOrder> zookeeper;
    if (record->server == "etcd") {
        etcd.emplace(history, partner, *record);
        report.witness["keys"] = etcd->keys();
        report.witness["anchors"] = etcd->clock().anchors();
        redecide_renews(history, partner, *etcd, report);
        decide = [&](std::string_view a, std::string_view b) { return decide_overlap(*etcd, a, b); };
    } else if (record->server == "zookeeper") {
        zookeeper.emplace(history, partner, *record);
        report.witness["nodes"] = zookeeper->nodes();
        report.witness["anchors"] = zookeeper->clock().anchors();
        if (zookeeper->server_clocks_moved()) report.witness["expiries_trusted"] = false;
        decide = [&](std::string_view a, std::string_view b) { return decide_zk_overlap(*zookeeper, a, b); };
    } else {
        report.witness["read"] = false;
        report.witness["why"] = "lockcheck has no witness for " + record->server + "'s record";
        return;
    }
    CheckerResult* me = mutual_exclusion_result(report);
    if (!me) return;
    report.witness.update(decide_listed(decide, *me));
    if (me->unlisted_violations > 0) report.witness["unlisted_overlaps"] = me->unlisted_violations;
}

}  // namespace lockcheck
