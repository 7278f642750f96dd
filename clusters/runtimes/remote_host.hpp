// The hosts of runtime ssh (clusters/runtimes/ssh_runtime.hpp) and the hosts file that
// lists them (flag --hosts, spec field `hosts`; README, "Run against the
// versions you run"): a JSON array, node i running on host i:
//
//   [{"address": "10.0.0.11", "user": "root", "key": "/home/me/.ssh/id_ed25519",
//     "sudo": false, "port": 22}, ...]
//
// address, user and key are required; sudo defaults to false, port to 22.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// A malformed hosts file: one line naming the file and the field.
class HostsFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RemoteHost {
    std::string address;        ///< where sshd listens, and the address clients and peers reach the node at
    std::string user;           ///< the login
    std::filesystem::path key;  ///< the private key that logs in (absolute)
    bool sudo = false;          ///< commands run with `sudo -n` (the user is not root)
    int port = 22;
};

/// The hosts of `hosts` (the parsed file `source`, for messages). Throws
/// HostsFileError("hosts file F: host 2: field 'port' ...") for the first
/// malformed field; a relative key is resolved against the file's directory.
std::vector<RemoteHost> parse_hosts(const nlohmann::json& hosts, const std::filesystem::path& source);

/// Reads and parses the hosts file `path`. Throws HostsFileError.
std::vector<RemoteHost> read_hosts_file(const std::filesystem::path& path);

nlohmann::json to_json(const RemoteHost& host);

/// "user@address port N", for messages.
std::string describe(const RemoteHost& host);

}  // namespace lockcheck
