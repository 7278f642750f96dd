#include "clusters/runtimes/remote_host.hpp"

#include <fstream>

#include "core/json_text.hpp"
#include "core/regular_file.hpp"
#include "core/utf8_text.hpp"

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

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/// Why `address` is no host name or IP address ssh may be given ("" when it is
/// one): letters, digits and . - _ : % (IPv6 and its zone), at most 253 bytes,
/// not starting with '-' (ssh would read "-oProxyCommand=..." as an option).
std::string address_problem(const std::string& address) {
    if (address.size() > 253) return "is longer than 253 bytes";
    if (address.front() == '-') return "must not start with '-'";
    for (char c : address)
        if (!is_alnum(c) && c != '.' && c != '-' && c != '_' && c != ':' && c != '%')
            return "must be a host name or an IP address (letters, digits and . - _ : %)";
    return "";
}

/// Why `user` is no login name ("" when it is one): letters, digits and . _ -,
/// at most 64 bytes, not starting with '-'.
std::string user_problem(const std::string& user) {
    if (user.size() > 64) return "is longer than 64 bytes";
    if (user.front() == '-') return "must not start with '-'";
    for (char c : user)
        if (!is_alnum(c) && c != '.' && c != '_' && c != '-') return "must be a login name (letters, digits and . _ -)";
    return "";
}

/// Why `key` is no path of a key file ("" when it is one): no control
/// characters (a newline, NUL), at most 4096 bytes.
std::string key_problem(const std::string& key) {
    if (key.size() > 4096) return "is longer than 4096 bytes";
    for (unsigned char c : key)
        if (c < 0x20 || c == 0x7f) return "must be a path without control characters";
    return "";
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
                fail(printable_excerpt(name), "is unknown (the fields are address, user, key, sudo, port)");
        RemoteHost host;
        host.address = required_string(entry, "address", fail);
        if (const auto why = address_problem(host.address); !why.empty()) fail("address", why);
        host.user = required_string(entry, "user", fail);
        if (const auto why = user_problem(host.user); !why.empty()) fail("user", why);
        const auto key = required_string(entry, "key", fail);
        if (const auto why = key_problem(key); !why.empty()) fail("key", why);
        host.key = key;
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
    // A FIFO would block the open (and the run's Ctrl-C with it), a directory or /dev/zero read wrong.
    if (const auto why = not_a_regular_file(path)) throw HostsFileError("hosts file " + path.string() + ": " + *why);
    std::ifstream in(path);
    if (!in) throw HostsFileError("hosts file " + path.string() + ": cannot be read");
    nlohmann::json hosts;
    try {
        hosts = parse_json_bounded(in);
    } catch (const JsonInputError& e) {
        throw HostsFileError("hosts file " + path.string() + ": " + e.what());
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
