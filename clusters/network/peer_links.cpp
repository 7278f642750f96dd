#include "clusters/network/peer_links.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace lockcheck {

int PeerLinks::add_face(const std::string& address, int port) {
    std::lock_guard lock(mutex_);
    const auto info = proxy_.add_link({address, 0}, {address, static_cast<std::uint16_t>(port)});
    faces_.push_back(info);
    return info.listen.port;
}

int PeerLinks::add_pair_face(const std::string& from, const std::string& address, int port,
                             netproxy::HeadRewriter head) {
    std::lock_guard lock(mutex_);
    // A server about to listen (a new ZooKeeper leader binds its quorum port just after it says
    // so) refuses for a moment; its peer would retry a direct connect, so the face retries too
    // rather than accept the peer and reset it.
    const auto info = proxy_.add_link(
        {address, 0}, {address, static_cast<std::uint16_t>(port)},
        {.to_server_head = std::move(head), .upstream_refused_patience = std::chrono::milliseconds(2000)});
    pair_faces_.push_back({from, info});
    return info.listen.port;
}

std::uint64_t PeerLinks::cut_pairs(const std::set<std::string>& targets, const std::set<std::string>& sources) {
    std::uint64_t caught = 0;
    for (const auto& face : pair_faces_) {
        if (!targets.contains(face.link.upstream.address) || !sources.contains(face.from)) continue;
        proxy_.set_fault(face.link.id, netproxy::faults::drop());
        cut_pair_faces_.push_back(face.link.id);
        caught += proxy_.connections(face.link.id).size();
    }
    return caught;
}

std::uint64_t PeerLinks::cut_into(const std::set<std::string>& targets, const std::set<std::string>& sources) {
    const netproxy::ConnectionSelector from_sources = [sources](const netproxy::ConnectionInfo& connection) {
        return sources.contains(connection.client.address);
    };
    std::uint64_t caught = 0;
    for (const auto& face : faces_) {
        if (!targets.contains(face.upstream.address)) continue;
        rules_.push_back(proxy_.add_rule(face.id, from_sources, netproxy::faults::drop()));
        for (const auto& connection : proxy_.connections(face.id)) caught += from_sources(connection) ? 1 : 0;
    }
    return caught;
}

std::uint64_t PeerLinks::isolate(const std::vector<std::string>& side, const std::vector<std::string>& rest) {
    const std::set<std::string> side_set(side.begin(), side.end()), rest_set(rest.begin(), rest.end());
    std::lock_guard lock(mutex_);
    const std::uint64_t caught = cut_into(side_set, rest_set) + cut_into(rest_set, side_set) +
                                 cut_pairs(side_set, rest_set) + cut_pairs(rest_set, side_set);
    ++cuts_;
    caught_ += caught;
    return caught;
}

void PeerLinks::heal() noexcept {
    std::lock_guard lock(mutex_);
    try {
        for (const auto rule : rules_) proxy_.remove_rule(rule);
        for (const auto face : cut_pair_faces_) proxy_.set_fault(face, netproxy::faults::pass());
    } catch (const std::exception& e) {  // the proxy stopped: nothing is cut any more
        spdlog::warn("peer links: heal: {}", e.what());
    }
    rules_.clear();
    cut_pair_faces_.clear();
}

PeerLinks::Totals PeerLinks::totals() const {
    std::lock_guard lock(mutex_);
    Totals totals{.faces = faces_.size() + pair_faces_.size(),
                  .cuts = cuts_,
                  .caught = caught_,
                  .rules_in_force = rules_.size() + cut_pair_faces_.size()};
    const auto count = [&](netproxy::LinkId id) {
        const auto stats = proxy_.stats(id);
        totals.connections += stats.accepted;
        totals.open += stats.open;
    };
    for (const auto& face : faces_) count(face.id);
    for (const auto& face : pair_faces_) count(face.link.id);
    return totals;
}

netproxy::LinkStats PeerLinks::face_stats(const std::string& address, int face_port) const {
    std::lock_guard lock(mutex_);
    const auto listens_there = [&](const netproxy::LinkInfo& info) {
        return info.listen.address == address && info.listen.port == face_port;
    };
    const auto face = std::find_if(faces_.begin(), faces_.end(), listens_there);
    if (face != faces_.end()) return proxy_.stats(face->id);
    const auto pair = std::find_if(pair_faces_.begin(), pair_faces_.end(),
                                   [&](const PairFace& candidate) { return listens_there(candidate.link); });
    if (pair != pair_faces_.end()) return proxy_.stats(pair->link.id);
    throw std::invalid_argument(fmt::format("peer links: no face listens on {}:{}", address, face_port));
}

std::string PeerLinks::summary() const {
    const auto t = totals();
    return fmt::format("peer links: {} faces, {} connections, {} cuts caught {} open connections, {} cut rules left",
                       t.faces, t.connections, t.cuts, t.caught, t.rules_in_force);
}

}  // namespace lockcheck
