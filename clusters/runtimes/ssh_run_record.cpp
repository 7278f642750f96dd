#include "clusters/runtimes/ssh_run_record.hpp"

#include <fstream>

#include "host/system_command.hpp"
#include "clusters/servers/config_quoting.hpp"
#include "clusters/runtimes/ssh_connection.hpp"
#include "host/state_directory.hpp"

namespace fs = std::filesystem;

namespace lockcheck {
namespace {

constexpr const char* kRecord = "record.json";

fs::path run_ssh_directory(const std::string& run_id) { return state_directory() / "runs" / (run_id + ".ssh"); }

}  // namespace

std::string signal_server_group(const fs::path& pid_file, const std::string& signal) {
    return "pid=$(cat " + shell_quote(pid_file.string()) + " 2>/dev/null) && kill -s " + signal + " -- -\"$pid\"";
}

fs::path ssh_node_directory(const std::string& run_id, const std::string& node) {
    private_directory(state_directory() / "runs");
    return private_directory(private_directory(run_ssh_directory(run_id)) / node);
}

void record_ssh_node(const fs::path& directory, const RemoteHost& host, const fs::path& pid_file) {
    std::ofstream out(directory / kRecord, std::ios::trunc);
    out << nlohmann::json{{"host", to_json(host)}, {"pid_file", pid_file.string()}}.dump() << "\n";
    if (!out) throw std::runtime_error("cannot write " + (directory / kRecord).string());
}

void remove_ssh_node_directory(const fs::path& directory) noexcept {
    std::error_code ec;
    fs::remove_all(directory, ec);
    fs::remove(directory.parent_path(), ec);  // fails while another node's is there
}

std::vector<std::string> remove_run_ssh(const std::string& run_id) noexcept {
    std::vector<std::string> removed;
    try {
        const auto run_directory = run_ssh_directory(run_id);
        std::error_code ec;
        if (!fs::is_directory(fs::symlink_status(run_directory, ec))) return removed;
        for (const auto& node : fs::directory_iterator(run_directory, ec)) {
            try {
                std::ifstream in(node.path() / kRecord);
                const auto record = nlohmann::json::parse(in);
                const auto host = parse_hosts(nlohmann::json::array({record.at("host")}), node.path() / kRecord).at(0);
                const fs::path pid_file = record.at("pid_file").get<std::string>();
                const auto argv = ssh_argv(host, node.path(), {}, signal_server_group(pid_file, "KILL"));
                if (run_command(argv).exit_code == 0)
                    removed.push_back("the server of node " + node.path().filename().string() + " on " +
                                      describe(host));
            } catch (const std::exception&) {
                // no record, or the host cannot be reached: the directory goes all the same
            }
        }
        if (fs::remove_all(run_directory, ec) > 0) removed.push_back(run_directory.string());
    } catch (...) {
        // never throws; what is left is found by the next clean
    }
    return removed;
}

}  // namespace lockcheck
