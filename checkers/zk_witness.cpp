#include "checkers/zk_witness.hpp"

#include <fmt/format.h>

namespace lockcheck {
namespace {

std::string session_text(std::int64_t session) { return fmt::format("0x{:x}", static_cast<std::uint64_t>(session)); }

nlohmann::json node_details(const NodeLife& life) {
    return {{"node", life.path},
            {"session", session_text(life.session)},
            {"created", life.created},
            {"removed", life.removed},
            {"end", std::string(node_end_words(life.end))}};
}

/// (a) for `owner`: its granted node was gone at its grant's zxid.
std::optional<WitnessDecision> node_gone_at_grant(const ZkOrder& order, std::string_view owner) {
    const ZkGrant* g = order.grant(owner);
    const NodeLife* life = order.granted_node(owner);
    if (!g || !g->zxid || !life || life->removed == 0 || life->removed > *g->zxid) return std::nullopt;
    WitnessDecision d{Blame::GrantWithoutOwnKey,
                      fmt::format("{}'s own node {} was removed at zxid 0x{:x}{}, {}, and its grant was decided by an "
                                  "answer at zxid 0x{:x}",
                                  owner, life->path, life->removed, placed_words(order.clock(), life->removed),
                                  node_end_words(life->end), *g->zxid)};
    d.details = {{"owner", owner}, {"grant_zxid", *g->zxid}, {"own_node", node_details(*life)}};
    return d;
}

/// (b) for `owner`: its granted node belongs to another session than its own.
std::optional<WitnessDecision> node_of_other_session(const ZkOrder& order, std::string_view owner) {
    const ZkGrant* g = order.grant(owner);
    const NodeLife* life = order.granted_node(owner);
    if (!g || !g->session || !life || !life->ephemeral || life->session == *g->session) return std::nullopt;
    const std::string ended = life->removed == 0
                                  ? std::string()
                                  : fmt::format("; it was {} at zxid 0x{:x}{}", node_end_words(life->end),
                                                life->removed, placed_words(order.clock(), life->removed));
    WitnessDecision d{
        Blame::GrantWithoutOwnKey,
        fmt::format("{} was granted node {}, which session {} created (zxid 0x{:x}), not its own "
                    "session {}{}",
                    owner, life->path, session_text(life->session), life->created, session_text(*g->session), ended)};
    d.details = {{"owner", owner}, {"own_session", session_text(*g->session)}, {"granted_node", node_details(*life)}};
    return d;
}

}  // namespace

std::optional<WitnessDecision> decide_zk_overlap(const ZkOrder& order, std::string_view first,
                                                 std::string_view second) {
    for (const std::string_view holder : {second, first})
        if (auto d = node_gone_at_grant(order, holder)) return d;
    for (const std::string_view holder : {second, first})
        if (auto d = node_of_other_session(order, holder)) return d;
    const NodeLife* earlier = order.granted_node(first);
    const ZkGrant* later = order.grant(second);
    if (!earlier || !later || !later->zxid || earlier->end != NodeEnd::Expired || earlier->removed > *later->zxid ||
        order.server_clocks_moved())
        return std::nullopt;
    WitnessDecision d{Blame::LeaseExpired,
                      fmt::format("{}'s node {} was removed at zxid 0x{:x}{} when its session {} expired on the "
                                  "server, before {}'s grant was decided at zxid 0x{:x}",
                                  first, earlier->path, earlier->removed, placed_words(order.clock(), earlier->removed),
                                  session_text(earlier->session), second, *later->zxid)};
    d.details = {{"owner", first}, {"later_grant_zxid", *later->zxid}, {"first_node", node_details(*earlier)}};
    return d;
}

}  // namespace lockcheck
