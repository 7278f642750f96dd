#include "netproxy/proxy_server.hpp"

#include <stdexcept>
#include <string>

namespace lockcheck::netproxy {

namespace {
constexpr std::size_t kScratchBytes = 64 * 1024;
}  // namespace

ProxyServer::ProxyServer(ProxyOptions options) : options_(std::move(options)), scratch_(kScratchBytes) {
    if (options_.buffer_bytes == 0) throw std::invalid_argument("the proxy's buffer_bytes must be positive");
}

ProxyServer::~ProxyServer() { stop(); }

void ProxyServer::stop() {
    thread_.stop([this] {
        links_.clear();
        rule_links_.clear();
    });
}

Link& ProxyServer::link(LinkId id) const {
    const auto found = links_.find(id);
    if (found == links_.end()) throw std::invalid_argument("the fault proxy has no link " + std::to_string(id));
    return *found->second;
}

LinkInfo ProxyServer::add_link(const Endpoint& listen, const Endpoint& upstream, LinkOptions options) {
    to_sockaddr(upstream);  // an upstream that is not IPv4 is refused now, not at the first connect
    return thread_.call([&] {
        const LinkId id = next_link_id_++;
        const LinkContext context{options_.buffer_bytes, options_.seed, options_.on_accept, scratch_,
                                  &next_connection_id_};
        auto created = std::make_unique<Link>(id, listen, upstream, thread_.loop(), context, std::move(options));
        const LinkInfo info = created->info();
        links_.emplace(id, std::move(created));
        return info;
    });
}

void ProxyServer::remove_link(LinkId id) {
    thread_.call([&] {
        link(id);
        std::erase_if(rule_links_, [id](const auto& entry) { return entry.second == id; });
        links_.erase(id);
    });
}

std::vector<LinkInfo> ProxyServer::links() const {
    return thread_.call([&] {
        std::vector<LinkInfo> infos;
        for (const auto& [id, entry] : links_) infos.push_back(entry->info());
        return infos;
    });
}

void ProxyServer::set_fault(LinkId id, const LinkFault& fault) {
    thread_.call([&] { link(id).set_fault(fault); });
}

RuleId ProxyServer::add_rule(LinkId id, ConnectionSelector selector, const LinkFault& fault) {
    if (!selector) throw std::invalid_argument("a fault rule needs a connection selector");
    return thread_.call([&] {
        Link& target = link(id);
        const RuleId rule = next_rule_id_++;
        target.add_rule(rule, std::move(selector), fault);
        rule_links_.emplace(rule, id);
        return rule;
    });
}

void ProxyServer::remove_rule(RuleId rule) {
    thread_.call([&] {
        const auto found = rule_links_.find(rule);
        if (found == rule_links_.end()) return;
        link(found->second).remove_rule(rule);
        rule_links_.erase(found);
    });
}

void ProxyServer::heal(LinkId id) {
    thread_.call([&] {
        link(id).heal();
        std::erase_if(rule_links_, [id](const auto& entry) { return entry.second == id; });
    });
}

std::vector<ConnectionInfo> ProxyServer::connections(LinkId id) const {
    return thread_.call([&] { return link(id).connections(); });
}

LinkStats ProxyServer::stats(LinkId id) const {
    return thread_.call([&] { return link(id).stats(); });
}

}  // namespace lockcheck::netproxy
