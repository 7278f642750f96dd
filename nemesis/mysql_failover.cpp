#include "nemesis/mysql_failover.hpp"

#include <spdlog/spdlog.h>

#include "clusters/network/firewall.hpp"
#include "clusters/servers/mariadb_node.hpp"

namespace lockcheck {

std::vector<std::string> mysql_cut_off_rules(const std::vector<std::string>& peers) {
    auto rules = isolation_rules(peers);
    rules.push_back("-A INPUT -p tcp --dport " + std::to_string(kMariadbPort) +
                    " --syn -j REJECT --reject-with tcp-reset");
    return rules;
}

std::optional<std::string> MysqlFailover::unavailable_reason() const {
    if (!namespaces_) return "it needs network namespaces (run as root)";
    return std::nullopt;
}

std::optional<std::vector<std::string>> MysqlFailover::start(const FaultEvent& event, const std::stop_token& stop) {
    std::lock_guard lock(mutex_);
    if (done_ || stop.stop_requested()) return std::nullopt;
    Node* old_primary = topology_.primary();
    if (!old_primary) return std::nullopt;
    Node* replica = nullptr;
    for (Node* n : topology_.nodes())
        if (n != old_primary) replica = n;
    done_ = true;
    apply_firewall(*old_primary, mysql_cut_off_rules({replica->address()}));
    cut_ = old_primary;
    promotion_.promote(*replica);
    const auto sessions =
        mariadb_admin_column(*old_primary, std::string("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '") +
                                               kMariadbUser + "' AND COMMAND <> 'Binlog Dump' ORDER BY ID");
    int killed = 0;
    for (std::size_t i = event.pick % 2; i < sessions.size(); i += 2) {
        try {
            mariadb_admin(*old_primary, {"KILL CONNECTION " + sessions[i]});
            ++killed;
        } catch (const std::exception&) {
            // the session ended by itself meanwhile
        }
    }
    spdlog::info("failover: {} cut off, {} promoted; killed {} of {} client sessions on {}", old_primary->name(),
                 replica->name(), killed, sessions.size(), old_primary->name());
    return std::vector<std::string>{old_primary->name(), replica->name()};
}

void MysqlFailover::heal() noexcept {
    std::lock_guard lock(mutex_);
    if (!cut_) return;
    clear_firewall(*cut_);
    try {
        promotion_.fence(*cut_);
    } catch (const std::exception& e) {
        spdlog::error("failover: cannot fence the old primary: {}", e.what());
    }
    cut_ = nullptr;
}

}  // namespace lockcheck
