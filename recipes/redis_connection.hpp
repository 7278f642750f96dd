// One hiredis connection with the error classification lock recipes need.
//
// hiredis 0.14 (Debian 12): redisConnectWithTimeout + redisSetTimeout. A
// broken connection is dropped and reconnected at the next command.
#pragma once

#include <hiredis/hiredis.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "recipes/connection_options.hpp"

namespace lockcheck {

struct ReplyDeleter {
    void operator()(redisReply* r) const {
        if (r) freeReplyObject(r);
    }
};
using RedisReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

/// The outcome of one command.
struct RedisOutcome {
    enum class Kind {
        Reply,    ///< the server answered (possibly with an error reply)
        NotSent,  ///< could not connect: the command certainly did not run
        Unknown,  ///< connection lost or timed out after sending: it may have run
    };
    Kind kind = Kind::Unknown;
    RedisReplyPtr reply;
    std::string error;  ///< for NotSent / Unknown

    bool is_error_reply() const { return reply && reply->type == REDIS_REPLY_ERROR; }
    std::string error_reply() const { return is_error_reply() ? std::string(reply->str, reply->len) : ""; }
};

class RedisConnection {
public:
    /// `endpoint` is "host:port". Connects lazily; every new connection
    /// first logs in with connection.login (AUTH user password), when set.
    RedisConnection(const std::string& endpoint, const ConnectionOptions& connection);
    ~RedisConnection();
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    RedisOutcome command(const std::vector<std::string>& argv);
    const std::string& endpoint() const { return endpoint_; }

private:
    std::string endpoint_;
    std::string host_;
    int port_ = 6379;
    timeval timeout_{};
    std::optional<ClientCredentials> login_;
    redisContext* context_ = nullptr;

    void disconnect();
    /// Connects and logs in; the NotSent outcome saying why when it cannot.
    std::optional<RedisOutcome> connect();
    /// Sends `argv` on the open connection.
    RedisOutcome send(const std::vector<std::string>& argv);
};

}  // namespace lockcheck
