#include "workloads/redis_connection.hpp"

#include <stdexcept>

namespace lockcheck {

RedisConnection::RedisConnection(const std::string& endpoint, std::chrono::milliseconds timeout)
    : endpoint_(endpoint) {
    const auto colon = endpoint.rfind(':');
    if (colon == std::string::npos) throw std::invalid_argument("endpoint '" + endpoint + "' is not host:port");
    host_ = endpoint.substr(0, colon);
    port_ = std::stoi(endpoint.substr(colon + 1));
    timeout_.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    timeout_.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
}

RedisConnection::~RedisConnection() { disconnect(); }

void RedisConnection::disconnect() {
    if (context_) redisFree(context_);
    context_ = nullptr;
}

RedisOutcome RedisConnection::command(const std::vector<std::string>& argv) {
    RedisOutcome outcome;
    if (!context_) {
        context_ = redisConnectWithTimeout(host_.c_str(), port_, timeout_);
        if (!context_ || context_->err) {
            outcome.kind = RedisOutcome::Kind::NotSent;
            outcome.error = "connect " + endpoint_ + ": " + (context_ ? context_->errstr : "out of memory");
            disconnect();
            return outcome;
        }
        redisSetTimeout(context_, timeout_);
    }
    std::vector<const char*> args;
    std::vector<size_t> lengths;
    for (const auto& a : argv) {
        args.push_back(a.data());
        lengths.push_back(a.size());
    }
    auto* reply = static_cast<redisReply*>(
        redisCommandArgv(context_, static_cast<int>(args.size()), args.data(), lengths.data()));
    if (!reply) {
        outcome.kind = RedisOutcome::Kind::Unknown;
        outcome.error = context_->errstr[0] ? context_->errstr : "connection lost";
        disconnect();
        return outcome;
    }
    outcome.kind = RedisOutcome::Kind::Reply;
    outcome.reply.reset(reply);
    return outcome;
}

}  // namespace lockcheck
