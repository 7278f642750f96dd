// How to run one redis-server node: its config file and readiness probe.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "clusters/durability_settings.hpp"
#include "clusters/node.hpp"

namespace lockcheck {

inline constexpr int kRedisPort = 6379;

/// Durability of a Redis node: no persistence, or an append-only file
/// fsynced every second or on every write.
enum class RedisPersistence { None, EverySec, Always };

/// "none" | "everysec" | "always"; throws std::invalid_argument otherwise.
RedisPersistence redis_persistence_from_string(const std::string& text);

/// One line of redis.conf / sentinel.conf: `directive`, then each of
/// `arguments` quoted (redis_config_quote), so no argument can end the line.
std::string redis_config_line(std::string_view directive, const std::vector<std::string>& arguments);

/// The redis.conf lines `durability` asks for: "aof-load-truncated no"
/// when redis_aof_load_truncated is false, nothing otherwise.
std::vector<std::string> redis_durability_config(const DurabilitySettings& durability);

/// Writes `dir`/redis.conf, mode 0600 (bound to `address`, data in
/// `dir`/data (mode 0700: the program's data_dir, which a power loss strikes),
/// log to stdout, clients and replicas authenticated with `password`:
/// requirepass and masterauth; then `extra_config` lines made with
/// redis_config_line, e.g. replicaof) and returns the program that runs it.
NodeProgram redis_server_program(const std::filesystem::path& dir, const std::string& address,
                                 RedisPersistence persistence, const std::string& password,
                                 const std::vector<std::string>& extra_config = {});

/// True when a redis-server (or redis-sentinel) at address:port answers PING
/// with PONG, after AUTH `password` when it is not empty.
bool redis_answers_ping(const std::string& address, int port, const std::string& password);

}  // namespace lockcheck
