// A client of etcd's v3 HTTP/JSON gateway (POST /v3/...) through libcurl.
//
// One curl easy handle (so one kept-alive connection) per client. Endpoints
// ("ip:port") are tried in order starting from the one that last answered:
// after a connection that could not be made the same request goes to the next
// endpoint (nothing was sent); after a timeout or a broken reply the request
// may have taken effect, so it is not repeated, and the next request starts
// at the next endpoint (the member may be paused or cut off); so does the
// next request after an error reply that may not be definite ("no leader").
// Every request is bounded by `timeout` (connect included). Not thread-safe.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "recipes/etcd_replies.hpp"

namespace lockcheck {

class EtcdHttp {
public:
    /// Throws std::invalid_argument without endpoints, std::runtime_error when
    /// libcurl cannot make a handle.
    EtcdHttp(std::vector<std::string> endpoints, std::chrono::milliseconds timeout);
    ~EtcdHttp();
    EtcdHttp(const EtcdHttp&) = delete;
    EtcdHttp& operator=(const EtcdHttp&) = delete;

    /// POSTs `body` to `path` (e.g. "/v3/kv/txn"). NotSent only when no
    /// endpoint could be reached; its error names the last one's failure.
    EtcdResponse post(const std::string& path, const nlohmann::json& body);
    std::size_t endpoint_count() const { return endpoints_.size(); }

private:
    struct Handle;
    std::vector<std::string> endpoints_;
    std::chrono::milliseconds timeout_;
    std::size_t current_ = 0;
    std::unique_ptr<Handle> handle_;

    EtcdResponse post_to(const std::string& endpoint, const std::string& path, const std::string& body);
};

}  // namespace lockcheck
