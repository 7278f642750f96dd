#include "clusters/remote_host.hpp"

#include <fstream>

namespace lockcheck {
namespace {

/// Field `name` of `entry` when it holds a string that is not empty; `fail` otherwise.
template <typename Fail>
std::string required_string(const nlohmann::json& entry, const char* name, const Fail& fail) {
    const auto found = entry.find(name);
    if (found == entry.end()) fail(name, "is missing");
    if (!found->is_string() || found->get<std::string>().empty()) fail(name, "must be a string that is not empty");
    return found->get<std::string>();
}

}  // namespace

std::vector<RemoteHost> parse_hosts(const nlohmann::json& hosts, const std::filesystem::path& source) {
    const std::string file = "hosts file " + source.string() + ": ";
    if (!hosts.is_array() || hosts.empty())
        throw HostsFileError(file +
                             "must be a JSON array of hosts ({\"address\", \"user\", \"key\", \"sudo\", "
                             "\"port\"}), one per node");
    std::vector<RemoteHost> parsed;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        const auto& entry = hosts[i];
        const std::string where = file + "host " + std::to_string(i + 1) + ": ";
        const auto fail = [&](const std::string& field, const std::string& why) {
            throw HostsFileError(where + "field '" + field + "' " + why);
        };
        if (!entry.is_object()) throw HostsFileError(where + "must be an object");
        for (const auto& [name, value] : entry.items())
            if (name != "address" && name != "user" && name != "key" && name != "sudo" && name != "port")
                fail(name, "is unknown (the fields are address, user, key, sudo, port)");
        RemoteHost host;
        host.address = required_string(entry, "address", fail);
        host.user = required_string(entry, "user", fail);
        host.key = required_string(entry, "key", fail);
        if (host.key.is_relative()) host.key = std::filesystem::absolute(source).parent_path() / host.key;
        if (const auto sudo = entry.find("sudo"); sudo != entry.end()) {
            if (!sudo->is_boolean()) fail("sudo", "must be true or false");
            host.sudo = sudo->get<bool>();
        }
        if (const auto port = entry.find("port"); port != entry.end()) {
            if (!port->is_number_integer() || port->get<long long>() < 1 || port->get<long long>() > 65535)
                fail("port", "must be an integer from 1 to 65535");
            host.port = port->get<int>();
        }
        parsed.push_back(std::move(host));
    }
    return parsed;
}

std::vector<RemoteHost> read_hosts_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw HostsFileError("hosts file " + path.string() + ": cannot be read");
    nlohmann::json hosts;
    try {
        hosts = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        throw HostsFileError("hosts file " + path.string() + ": is not JSON: " + e.what());
    }
    return parse_hosts(hosts, path);
}

nlohmann::json to_json(const RemoteHost& host) {
    return {{"address", host.address},
            {"user", host.user},
            {"key", host.key.string()},
            {"sudo", host.sudo},
            {"port", host.port}};
}

std::string describe(const RemoteHost& host) {
    return host.user + "@" + host.address + " port " + std::to_string(host.port);
}

}  // namespace lockcheck
