#include "recipes/redis_connection.hpp"

#include <stdexcept>

namespace lockcheck {

RedisConnection::RedisConnection(const std::string& endpoint, const ConnectionOptions& connection)
    : endpoint_(endpoint), login_(connection.login) {
    const auto colon = endpoint.rfind(':');
    if (colon == std::string::npos) throw std::invalid_argument("endpoint '" + endpoint + "' is not host:port");
    host_ = endpoint.substr(0, colon);
    port_ = std::stoi(endpoint.substr(colon + 1));
    timeout_.tv_sec = static_cast<time_t>(connection.timeout.count() / 1000);
    timeout_.tv_usec = static_cast<suseconds_t>((connection.timeout.count() % 1000) * 1000);
}

RedisConnection::~RedisConnection() { disconnect(); }

void RedisConnection::disconnect() {
    if (context_) redisFree(context_);
    context_ = nullptr;
}

RedisOutcome RedisConnection::command(const std::vector<std::string>& argv) {
    if (!context_)
        if (auto refused = connect()) return std::move(*refused);
    return send(argv);
}

std::optional<RedisOutcome> RedisConnection::connect() {
    RedisOutcome refused;
    refused.kind = RedisOutcome::Kind::NotSent;
    context_ = redisConnectWithTimeout(host_.c_str(), port_, timeout_);
    if (!context_ || context_->err) {
        refused.error = "connect " + endpoint_ + ": " + (context_ ? context_->errstr : "out of memory");
        disconnect();
        return refused;
    }
    redisSetTimeout(context_, timeout_);
    if (!login_) return std::nullopt;
    std::vector<std::string> auth{"AUTH", login_->password};
    if (!login_->user.empty()) auth.insert(auth.begin() + 1, login_->user);
    const RedisOutcome answer = send(auth);
    if (answer.kind == RedisOutcome::Kind::Reply && !answer.is_error_reply()) return std::nullopt;
    refused.error = "login to " + endpoint_ + ": " + (answer.is_error_reply() ? answer.error_reply() : answer.error);
    disconnect();
    return refused;
}

RedisOutcome RedisConnection::send(const std::vector<std::string>& argv) {
    RedisOutcome outcome;
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
