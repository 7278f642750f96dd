// How to run one redis-server node: its config file and readiness probe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "clusters/node.hpp"

namespace lockcheck {

inline constexpr int kRedisPort = 6379;

/// Durability of a Redis node: no persistence, or an append-only file
/// fsynced every second or on every write.
enum class RedisPersistence { None, EverySec, Always };

/// "none" | "everysec" | "always"; throws std::invalid_argument otherwise.
RedisPersistence redis_persistence_from_string(const std::string& text);

/// Writes `dir`/redis.conf (bound to `address`, data in `dir`, log to stdout,
/// then `extra_config` lines, e.g. "replicaof ...") and returns the program
/// that runs it.
NodeProgram redis_server_program(const std::filesystem::path& dir, const std::string& address,
                                 RedisPersistence persistence, const std::vector<std::string>& extra_config = {});

/// True when a redis-server (or redis-sentinel) at address:port answers PING with PONG.
bool redis_answers_ping(const std::string& address, int port = kRedisPort);

}  // namespace lockcheck
