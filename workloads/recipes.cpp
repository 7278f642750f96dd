#include "workloads/recipes.hpp"

#include <limits>
#include <stdexcept>

#include "core/json_integer.hpp"

#include "workloads/redis_set_nx_px.hpp"
#include "workloads/redlock.hpp"
#include "workloads/redis_del_unsafe.hpp"
#include "workloads/redis_getset_timestamp.hpp"
#include "workloads/redis_reentrant_hash.hpp"
#include "workloads/redis_setnx_expire.hpp"
#include "workloads/redis_watch_multi.hpp"
#include "workloads/redis_watchdog.hpp"
#include "workloads/zk_ephemeral.hpp"
#include "workloads/zk_sequential.hpp"
#include "workloads/etcd_lease_lock.hpp"
#include "workloads/mysql_get_lock.hpp"
#include "workloads/mysql_table_record.hpp"
#include "workloads/mysql_for_update.hpp"
#include "workloads/mysql_optimistic.hpp"
#include "workloads/mysql_stock_decrement.hpp"

namespace lockcheck {

const std::vector<RecipeInfo>& recipes() {
    static const std::vector<RecipeInfo> all{
        {"redis-set-nx-px", "SET key owner NX PX ttl; release by compare-and-delete in Lua", {"redis-single", "redis-sentinel"},
         {"fencing"}},
        {"redis-setnx-expire", "SETNX key owner, then PEXPIRE as a second command (a crash between leaves no TTL)",
         {"redis-single"}},
        {"redis-del-unsafe", "SET key owner NX PX ttl; release by plain DEL without checking the owner",
         {"redis-single"}, {"fencing"}},
        {"redis-getset-timestamp", "SETNX with an expiry timestamp as value; GET + GETSET take over expired locks",
         {"redis-single"}},
        {"redis-reentrant-hash", "Redisson's re-entrant hash lock: HINCRBY per owner + PEXPIRE in Lua",
         {"redis-single"}, {"fencing", "reentrant"}},
        {"redis-watchdog", "SET NX PX plus lease renewal while held (Redisson's watchdog)", {"redis-single"},
         {"fencing", "renew"}},
        {"redis-watch-multi", "lock key taken by a WATCH/MULTI/EXEC optimistic transaction", {"redis-single"},
         {"fencing"}},
        {"redlock", "Redlock over 5 independent nodes: quorum 3, validity = TTL - elapsed - drift; no token",
         {"redis-independent"}},
        {"zk-ephemeral", "ZooKeeper: one EPHEMERAL node per lock plus a watch; session = lease; czxid as token",
         {"zookeeper"}, {"fencing"}},
        {"zk-sequential", "ZooKeeper: EPHEMERAL|SEQUENCE children, lowest holds, each watches its predecessor "
         "(Curator); czxid as token", {"zookeeper"}, {"fencing"}},
        {"etcd-lease-lock", "etcd lease + txn on create_revision == 0, kept alive while held; revision as token",
         {"etcd"}, {"fencing", "renew"}},
        {"mysql-table-record", "INSERT a row keyed by the lock, DELETE it to release; option cleanup: expire rows older than ttl",
         {"mysql-single", "mysql-replicated"}},
        {"mysql-get-lock", "GET_LOCK(key, 0) / RELEASE_LOCK(key) on the worker's MariaDB session (no lease, not replicated)",
         {"mysql-single", "mysql-replicated"}},
        {"mysql-optimistic", "version column: UPDATE ... SET owner, version = version + 1 WHERE version = read; the version as token",
         {"mysql-single", "mysql-replicated"}, {"fencing"}},
        {"mysql-for-update", "SELECT ... FOR UPDATE in a transaction, lease = wait_timeout; option resource: inside | outside",
         {"mysql-single", "mysql-replicated"}},
        {"mysql-stock-decrement", "not a lock: UPDATE stock SET n = n - 1 WHERE id = ? AND n > 0; option stock, checked for oversell",
         {"mysql-single", "mysql-replicated"}, {"stock"}},
    };
    return all;
}

const RecipeInfo* find_recipe(const std::string& name) {
    for (const auto& r : recipes())
        if (r.name == name) return &r;
    return nullptr;
}

namespace {

/// The boolean option `name` of `options`, or `fallback` when absent.
bool option_bool(const nlohmann::json& options, const char* name, bool fallback) {
    const auto it = options.find(name);
    if (it == options.end()) return fallback;
    if (!it->is_boolean()) throw std::invalid_argument(std::string("recipe option '") + name + "' must be true or false");
    return it->get<bool>();
}

/// The largest expire_gap_ms: the worker sleeps that long inside an acquire.
constexpr std::int64_t kMaxExpireGapMs = 3'600'000;
/// The largest initial stock of mysql-stock-decrement.
constexpr std::int64_t kMaxStock = 1'000'000'000;

/// The integer option `name` (in [0, max]) of `options`, or `fallback` when absent.
std::int64_t option_integer(const nlohmann::json& options, const char* name, std::int64_t fallback,
                            std::int64_t max) {
    const auto it = options.find(name);
    if (it == options.end()) return fallback;
    const auto value = json_integer<std::int64_t>(*it);
    if (!value || *value < 0 || *value > max)
        throw std::invalid_argument(std::string("recipe option '") + name + "' must be an integer in [0, " +
                                    std::to_string(max) + "]");
    return *value;
}

/// The zk recipes' session_timeout_ms, when set: within what the zookeeper
/// topology's servers grant (zoo.cfg minSessionTimeout..maxSessionTimeout).
std::optional<std::int64_t> zk_session_timeout_option(const nlohmann::json& options) {
    if (!options.contains("session_timeout_ms")) return std::nullopt;
    const auto ms = option_integer(options, "session_timeout_ms", 0, std::numeric_limits<std::int64_t>::max());
    if (ms < kZkMinSessionMs || ms > kZkMaxSessionMs)
        throw std::invalid_argument("recipe option 'session_timeout_ms' must be within [" +
                                    std::to_string(kZkMinSessionMs) + ", " + std::to_string(kZkMaxSessionMs) +
                                    "] ms, the session timeouts the zookeeper topology's servers grant");
    return ms;
}

}  // namespace

void check_recipe_options(const std::string& recipe, const nlohmann::json& options) {
    if (!options.is_object()) throw std::invalid_argument("recipe options must be an object");
    for (const auto& [name, value] : options.items()) {
        if (recipe == "redis-setnx-expire" && name == "expire_gap_ms") {
            option_integer(options, "expire_gap_ms", 0, kMaxExpireGapMs);
            continue;
        }
        if ((recipe == "zk-ephemeral" || recipe == "zk-sequential") && name == "session_timeout_ms") {
            zk_session_timeout_option(options);
            continue;
        }
        if (recipe == "mysql-table-record" && name == "cleanup") {
            option_bool(options, "cleanup", false);
            continue;
        }
        if (recipe == "mysql-for-update" && name == "resource") {
            if (value != "inside" && value != "outside")
                throw std::invalid_argument("recipe option 'resource' must be \"inside\" or \"outside\"");
            continue;
        }
        if (recipe == "mysql-stock-decrement" && name == "stock") {
            option_integer(options, "stock", 0, kMaxStock);
            continue;
        }
        throw std::invalid_argument("recipe '" + recipe + "' has no option '" + name + "'");
    }
}

std::unique_ptr<WorkerClient> make_lock_client(const std::string& recipe, const std::vector<std::string>& endpoints,
                                             const ConnectionOptions& connection, const nlohmann::json& options) {
    const auto timeout = connection.timeout;
    if (endpoints.empty()) throw std::invalid_argument("recipe '" + recipe + "' needs at least one endpoint");
    check_recipe_options(recipe, options);
    if (recipe == "redis-set-nx-px") return std::make_unique<RedisSetNxPx>(endpoints, connection);
    if (recipe == "redlock") return std::make_unique<Redlock>(endpoints, connection);
    if (recipe == "redis-setnx-expire")
        return std::make_unique<RedisSetNxExpire>(
            endpoints.front(), connection,
            std::chrono::milliseconds(option_integer(options, "expire_gap_ms",
                                                     RedisSetNxExpire::kDefaultExpireGap.count(), kMaxExpireGapMs)));
    if (recipe == "redis-del-unsafe") return std::make_unique<RedisDelUnsafe>(endpoints.front(), connection);
    if (recipe == "redis-getset-timestamp") return std::make_unique<RedisGetsetTimestamp>(endpoints.front(), connection);
    if (recipe == "redis-reentrant-hash") return std::make_unique<RedisReentrantHash>(endpoints.front(), connection);
    if (recipe == "redis-watchdog") return std::make_unique<RedisWatchdog>(endpoints.front(), connection);
    if (recipe == "redis-watch-multi") return std::make_unique<RedisWatchMulti>(endpoints.front(), connection);
    if (recipe == "zk-ephemeral")
        return std::make_unique<ZkEphemeral>(endpoints, timeout, zk_session_timeout_option(options));
    if (recipe == "zk-sequential")
        return std::make_unique<ZkSequential>(endpoints, timeout, zk_session_timeout_option(options));
    if (recipe == "etcd-lease-lock") return std::make_unique<EtcdLeaseLock>(endpoints, timeout);
    if (recipe == "mysql-table-record")
        return std::make_unique<MysqlTableRecord>(endpoints, connection, option_bool(options, "cleanup", false));
    if (recipe == "mysql-get-lock") return std::make_unique<MysqlGetLock>(endpoints, connection);
    if (recipe == "mysql-optimistic") return std::make_unique<MysqlOptimistic>(endpoints, connection);
    if (recipe == "mysql-for-update")
        return std::make_unique<MysqlForUpdate>(endpoints, connection, options.value("resource", "outside") == "inside");
    if (recipe == "mysql-stock-decrement")
        return std::make_unique<MysqlStockDecrement>(
            endpoints, connection, option_integer(options, "stock", MysqlStockDecrement::kDefaultStock, kMaxStock));
    throw std::invalid_argument("unknown recipe '" + recipe + "'");
}

}  // namespace lockcheck
