#include "clusters/network/firewall.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lockcheck {

std::vector<std::string> isolation_rules(const std::vector<std::string>& peers) {
    std::vector<std::string> rules;
    for (const auto& p : peers) {
        rules.push_back("-A INPUT -s " + p + " -j DROP");
        rules.push_back("-A OUTPUT -d " + p + " -j DROP");
    }
    return rules;
}

std::vector<std::string> packet_loss_rules(double probability) {
    std::ostringstream p;
    p << probability;
    return {"-A INPUT -i eth0 -m statistic --mode random --probability " + p.str() + " -j DROP",
            "-A OUTPUT -o eth0 -m statistic --mode random --probability " + p.str() + " -j DROP"};
}

void apply_firewall(const Node& node, const std::vector<std::string>& rules) {
    if (!node.has_own_network())
        throw std::runtime_error("node " + node.name() + " has no network namespace of its own");
    const auto path = node.dir() / "firewall.rules";
    {
        std::ofstream out(path, std::ios::trunc);
        out << "*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n";
        for (const auto& r : rules) out << r << "\n";
        out << "COMMIT\n";
        if (!out) throw std::runtime_error("cannot write " + path.string());
    }
    node.run_in_network({"iptables-restore", path.string()});
}

void clear_firewall(const Node& node) noexcept {
    try {
        apply_firewall(node, {});
    } catch (...) {
        // the namespace is deleted at the end of the run anyway
    }
}

}  // namespace lockcheck
