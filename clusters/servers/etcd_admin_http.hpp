// The controller's own requests to an etcd member's v3 HTTP/JSON gateway
// (not the workers': those are recipes/etcd_http.hpp): one libcurl handle per
// request, with a timeout, no proxy and no signals.
#pragma once

#include <curl/curl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lockcheck {

struct CurlHandleDeleter {
    void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
using CurlHandle = std::unique_ptr<CURL, CurlHandleDeleter>;

/// "http://ADDRESS:2379" of a member whose client port is etcd's default.
std::string etcd_client_url(const std::string& address);

/// A handle for `url` that gives up after `timeout` (null when libcurl cannot make one).
CurlHandle etcd_admin_handle(const std::string& url, std::chrono::milliseconds timeout);

/// CURLOPT_WRITEFUNCTION that appends to the std::string in CURLOPT_WRITEDATA.
std::size_t append_to_string(char* data, std::size_t size, std::size_t count, void* out);

/// POSTs `body` to `url` (a member's gateway path); the reply object when
/// the member answered HTTP 200 with a JSON object within `timeout`, else nullopt.
std::optional<nlohmann::json> etcd_admin_post(const std::string& url, const std::string& body,
                                              std::chrono::milliseconds timeout);

}  // namespace lockcheck
