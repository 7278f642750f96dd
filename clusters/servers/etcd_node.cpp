#include "clusters/servers/etcd_node.hpp"

#include <curl/curl.h>

#include <memory>
#include <mutex>

#include <nlohmann/json.hpp>

#include "clusters/servers/server_data_files.hpp"

namespace lockcheck {
namespace {

struct CurlDeleter {
    void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
using CurlPtr = std::unique_ptr<CURL, CurlDeleter>;

CurlPtr new_handle(const std::string& url, std::chrono::milliseconds timeout) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    CurlPtr c(curl_easy_init());
    if (!c) return c;
    curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(c.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(c.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c.get(), CURLOPT_PROXY, "");
    return c;
}

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
}

std::string client_url(const std::string& address) {
    return "http://" + address + ":" + std::to_string(kEtcdClientPort);
}

/// True when a TCP connection to the member's client port succeeds.
bool client_port_open(const std::string& address) {
    auto c = new_handle(client_url(address), std::chrono::milliseconds(200));
    if (!c) return false;
    curl_easy_setopt(c.get(), CURLOPT_CONNECT_ONLY, 1L);
    return curl_easy_perform(c.get()) == CURLE_OK;
}

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
    const std::string client = client_url(address);
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
    return NodeProgram{argv, client_port_open, data_dir, "dir-fsync", std::nullopt, etcd_data_files()};
}

std::optional<EtcdMemberStatus> etcd_member_status(const std::string& address, std::chrono::milliseconds timeout) {
    auto c = new_handle(client_url(address) + "/v3/maintenance/status", timeout);
    if (!c) return std::nullopt;
    std::string body;
    curl_easy_setopt(c.get(), CURLOPT_POSTFIELDS, "{}");
    curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &body);
    long status = 0;
    if (curl_easy_perform(c.get()) != CURLE_OK) return std::nullopt;
    curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &status);
    const auto reply = nlohmann::json::parse(body, nullptr, false);
    if (status != 200 || !reply.is_object() || !reply.contains("header") || !reply["header"].is_object())
        return std::nullopt;
    EtcdMemberStatus s{text_field(reply["header"], "member_id"), text_field(reply, "leader")};
    if (s.member_id.empty()) return std::nullopt;
    return s;
}

}  // namespace lockcheck
