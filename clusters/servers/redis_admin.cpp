#include "clusters/servers/redis_admin.hpp"

#include <hiredis/hiredis.h>

#include <sstream>

namespace lockcheck {
namespace {

void flatten(const redisReply* reply, std::vector<std::string>& out) {
    switch (reply->type) {
        case REDIS_REPLY_ARRAY:
            for (size_t i = 0; i < reply->elements; ++i) flatten(reply->element[i], out);
            break;
        case REDIS_REPLY_INTEGER: out.push_back(std::to_string(reply->integer)); break;
        case REDIS_REPLY_NIL: out.emplace_back(); break;
        default: out.emplace_back(reply->str, reply->len); break;
    }
}

/// Sends `argv` on `c`; the reply (nullptr when the connection failed).
redisReply* send_command(redisContext* c, const std::vector<std::string>& argv) {
    std::vector<const char*> args;
    std::vector<size_t> lengths;
    for (const auto& a : argv) {
        args.push_back(a.data());
        lengths.push_back(a.size());
    }
    return static_cast<redisReply*>(redisCommandArgv(c, static_cast<int>(args.size()), args.data(), lengths.data()));
}

/// AUTH `password` on `c`; true when there is none or the server accepts it.
bool authenticate(redisContext* c, const std::string& password) {
    if (password.empty()) return true;
    auto* reply = send_command(c, {"AUTH", password});
    const bool accepted = reply && reply->type != REDIS_REPLY_ERROR;
    if (reply) freeReplyObject(reply);
    return accepted;
}

}  // namespace

std::optional<std::vector<std::string>> redis_admin_command(const std::string& address, int port,
                                                            const std::string& password,
                                                            const std::vector<std::string>& argv,
                                                            std::chrono::milliseconds timeout) {
    const timeval tv{static_cast<time_t>(timeout.count() / 1000),
                     static_cast<suseconds_t>((timeout.count() % 1000) * 1000)};
    redisContext* c = redisConnectWithTimeout(address.c_str(), port, tv);
    if (!c) return std::nullopt;
    std::optional<std::vector<std::string>> result;
    if (!c->err) {
        redisSetTimeout(c, tv);
        auto* reply = authenticate(c, password) ? send_command(c, argv) : nullptr;
        if (reply && reply->type != REDIS_REPLY_ERROR) {
            result.emplace();
            flatten(reply, *result);
        }
        if (reply) freeReplyObject(reply);
    }
    redisFree(c);
    return result;
}

std::optional<std::string> info_field(const std::string& info, const std::string& field) {
    std::istringstream in(info);
    const std::string prefix = field + ":";
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
    }
    return std::nullopt;
}

std::optional<std::string> pair_field(const std::vector<std::string>& pairs, const std::string& field) {
    for (size_t i = 0; i + 1 < pairs.size(); i += 2)
        if (pairs[i] == field) return pairs[i + 1];
    return std::nullopt;
}

}  // namespace lockcheck
