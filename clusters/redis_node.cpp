#include "clusters/redis_node.hpp"

#include <hiredis/hiredis.h>

#include <fstream>
#include <stdexcept>

namespace lockcheck {

RedisPersistence redis_persistence_from_string(const std::string& text) {
    if (text == "none") return RedisPersistence::None;
    if (text == "everysec") return RedisPersistence::EverySec;
    if (text == "always") return RedisPersistence::Always;
    throw std::invalid_argument("persistence must be none, everysec or always, not '" + text + "'");
}

NodeProgram redis_server_program(const std::filesystem::path& dir, const std::string& address,
                                 RedisPersistence persistence, const std::vector<std::string>& extra_config) {
    std::filesystem::create_directories(dir);
    const auto conf = dir / "redis.conf";
    std::ofstream out(conf);
    out << "# written by lockcheck\n"
        << "bind " << address << "\n"
        << "port " << kRedisPort << "\n"
        << "protected-mode no\n"
        << "daemonize no\n"
        << "logfile \"\"\n"
        << "dir " << dir.string() << "\n"
        << "save \"\"\n";
    if (persistence == RedisPersistence::None) {
        out << "appendonly no\n";
    } else {
        out << "appendonly yes\n"
            << "appendfsync " << (persistence == RedisPersistence::Always ? "always" : "everysec") << "\n";
    }
    for (const auto& line : extra_config) out << line << "\n";
    if (!out) throw std::runtime_error("cannot write " + conf.string());
    return NodeProgram{{"redis-server", conf.string()}, [](const std::string& a) { return redis_answers_ping(a); }};
}

bool redis_answers_ping(const std::string& address, int port) {
    const timeval timeout{0, 200'000};
    redisContext* c = redisConnectWithTimeout(address.c_str(), port, timeout);
    if (!c) return false;
    bool pong = false;
    if (!c->err) {
        redisSetTimeout(c, timeout);
        auto* reply = static_cast<redisReply*>(redisCommand(c, "PING"));
        pong = reply && reply->type == REDIS_REPLY_STATUS && std::string(reply->str, reply->len) == "PONG";
        if (reply) freeReplyObject(reply);
    }
    redisFree(c);
    return pong;
}

}  // namespace lockcheck
