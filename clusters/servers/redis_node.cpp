#include "clusters/servers/redis_node.hpp"

#include <stdexcept>

#include "clusters/servers/config_quoting.hpp"
#include "clusters/servers/server_data_files.hpp"
#include "host/private_file.hpp"
#include "clusters/servers/redis_admin.hpp"

namespace lockcheck {

RedisPersistence redis_persistence_from_string(const std::string& text) {
    if (text == "none") return RedisPersistence::None;
    if (text == "everysec") return RedisPersistence::EverySec;
    if (text == "always") return RedisPersistence::Always;
    throw std::invalid_argument("persistence must be none, everysec or always, not '" + text + "'");
}

std::string redis_config_line(std::string_view directive, const std::vector<std::string>& arguments) {
    std::string line(directive);
    for (const auto& argument : arguments) line += " " + redis_config_quote(argument);
    return line;
}

NodeProgram redis_server_program(const std::filesystem::path& dir, const std::string& address,
                                 RedisPersistence persistence, const std::string& password,
                                 const std::vector<std::string>& extra_config) {
    const auto data = dir / "data";
    std::filesystem::create_directories(data);
    std::filesystem::permissions(data, std::filesystem::perms::owner_all);
    std::string conf_text = "# written by lockcheck\n" + redis_config_line("bind", {address}) + "\nport " +
                            std::to_string(kRedisPort) + "\nprotected-mode no\ndaemonize no\nlogfile \"\"\n" +
                            redis_config_line("dir", {data.string()}) + "\nsave \"\"\n";
    if (!password.empty())
        conf_text +=
            redis_config_line("requirepass", {password}) + "\n" + redis_config_line("masterauth", {password}) + "\n";
    if (persistence == RedisPersistence::None)
        conf_text += "appendonly no\n";
    else
        conf_text += std::string("appendonly yes\nappendfsync ") +
                     (persistence == RedisPersistence::Always ? "always" : "everysec") + "\n";
    for (const auto& line : extra_config) conf_text += line + "\n";
    const auto conf = dir / "redis.conf";
    write_private_file(conf, conf_text);
    // dir-fsync: Redis fsyncs appendonlydir/ after each change to it, which commits its mkdir too (docs/nemesis.md).
    return NodeProgram{{"redis-server", conf.string()},
                       [password](const std::string& a) { return redis_answers_ping(a, kRedisPort, password); },
                       data,
                       "dir-fsync",
                       std::nullopt,
                       persistence == RedisPersistence::None ? std::vector<DataFile>{} : redis_data_files()};
}

std::vector<std::string> redis_durability_config(const DurabilitySettings& durability) {
    if (durability.redis_aof_load_truncated) return {};
    return {"aof-load-truncated no"};
}

bool redis_answers_ping(const std::string& address, int port, const std::string& password) {
    const auto pong = redis_admin_command(address, port, password, {"PING"}, std::chrono::milliseconds(200));
    return pong && pong->size() == 1 && pong->front() == "PONG";
}

}  // namespace lockcheck
