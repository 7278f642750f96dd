#include "clusters/servers/etcd_node.hpp"

#include <nlohmann/json.hpp>

#include "clusters/servers/etcd_admin_http.hpp"
#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {
namespace {

/// True when a TCP connection to the member's client port succeeds.
bool client_port_open(const std::string& address) {
    auto c = etcd_admin_handle(etcd_client_url(address), std::chrono::milliseconds(200));
    if (!c) return false;
    curl_easy_setopt(c.get(), CURLOPT_CONNECT_ONLY, 1L);
    return curl_easy_perform(c.get()) == CURLE_OK;
}

/// True when the member's peer port answers GET /version. etcd opens its
/// listeners before it reads its WAL and serves its peer port only once the
/// WAL and backend are loaded, without waiting for a quorum (its client port
/// waits for one), so this tells a member that came up from one that is
/// about to refuse its WAL, also while its peers are still starting.
bool peer_port_serving(const std::string& address) {
    auto c = etcd_admin_handle("http://" + address + ":" + std::to_string(kEtcdPeerPort) + "/version",
                               std::chrono::milliseconds(200));
    if (!c) return false;
    std::string ignored;
    curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, append_to_string);
    curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &ignored);
    long status = 0;
    if (curl_easy_perform(c.get()) != CURLE_OK) return false;
    curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &status);
    return status == 200;
}

/// Ready: both ports open and the WAL loaded.
bool member_ready(const std::string& address) { return client_port_open(address) && peer_port_serving(address); }

std::string text_field(const nlohmann::json& object, const char* field) {
    const auto it = object.find(field);
    if (it == object.end()) return "";
    if (it->is_string()) return it->get<std::string>();
    return it->is_number() ? it->dump() : "";
}

}  // namespace

NodeProgram etcd_server_program(const std::filesystem::path& dir, const std::filesystem::path& data_dir,
                                const std::string& name, const std::string& address, const EtcdBootstrap& bootstrap,
                                bool fsync) {
    std::filesystem::create_directories(dir);
    std::filesystem::create_directories(data_dir.parent_path());
    const std::string client = etcd_client_url(address);
    const std::string peer = "http://" + address + ":" + std::to_string(kEtcdPeerPort);
    std::vector<std::string> argv{"etcd",
                                  "--name",
                                  name,
                                  "--data-dir",
                                  data_dir.string(),
                                  "--listen-client-urls",
                                  client,
                                  "--advertise-client-urls",
                                  client,
                                  "--listen-peer-urls",
                                  peer,
                                  "--initial-advertise-peer-urls",
                                  peer,
                                  "--initial-cluster",
                                  bootstrap.initial_cluster,
                                  "--initial-cluster-state",
                                  "new",
                                  "--initial-cluster-token",
                                  bootstrap.token,
                                  "--heartbeat-interval",
                                  "100",
                                  "--election-timeout",
                                  "1000",
                                  "--logger",
                                  "zap",
                                  "--log-outputs",
                                  "stderr"};
    if (!fsync) argv.push_back("--unsafe-no-fsync");
    return NodeProgram{argv, member_ready, data_dir, "dir-fsync", std::nullopt, etcd_data_files()};
}

std::optional<EtcdMemberStatus> etcd_member_status(const std::string& address, std::chrono::milliseconds timeout) {
    const auto reply = etcd_admin_post(etcd_client_url(address) + "/v3/maintenance/status", "{}", timeout);
    if (!reply || !reply->contains("header") || !(*reply)["header"].is_object()) return std::nullopt;
    EtcdMemberStatus s{text_field((*reply)["header"], "member_id"), text_field(*reply, "leader")};
    if (s.member_id.empty()) return std::nullopt;
    return s;
}

}  // namespace lockcheck
