#include "clusters/servers/etcd_admin_http.hpp"

#include <mutex>

#include "clusters/servers/etcd_node.hpp"

namespace lockcheck {

std::string etcd_client_url(const std::string& address) {
    return "http://" + address + ":" + std::to_string(kEtcdClientPort);
}

CurlHandle etcd_admin_handle(const std::string& url, std::chrono::milliseconds timeout) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    CurlHandle c(curl_easy_init());
    if (!c) return c;
    curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(c.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(c.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c.get(), CURLOPT_PROXY, "");
    return c;
}

std::size_t append_to_string(char* data, std::size_t size, std::size_t count, void* out) {
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
}

std::optional<nlohmann::json> etcd_admin_post(const std::string& url, const std::string& body,
                                              std::chrono::milliseconds timeout) {
    auto c = etcd_admin_handle(url, timeout);
    if (!c) return std::nullopt;
    std::string reply_text;
    curl_easy_setopt(c.get(), CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, append_to_string);
    curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &reply_text);
    long status = 0;
    if (curl_easy_perform(c.get()) != CURLE_OK) return std::nullopt;
    curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &status);
    auto reply = nlohmann::json::parse(reply_text, nullptr, false);
    if (status != 200 || !reply.is_object()) return std::nullopt;
    return reply;
}

}  // namespace lockcheck
