#include "recipes/redis_primary.hpp"

#include <stdexcept>

namespace lockcheck {
namespace {

constexpr std::string_view kSentinelPrefix = "sentinel:";
constexpr const char* kMasterName = "lockcheck";  // clusters/topologies/redis_sentinel.hpp

}  // namespace

bool is_sentinel_endpoint(const std::string& endpoint) { return endpoint.rfind(kSentinelPrefix, 0) == 0; }

RedisPrimary::RedisPrimary(const std::vector<std::string>& endpoints, const ConnectionOptions& connection)
    : options_(connection) {
    if (endpoints.empty()) throw std::invalid_argument("no Redis endpoint");
    if (!is_sentinel_endpoint(endpoints.front())) {
        connection_ = std::make_unique<RedisConnection>(endpoints.front(), options_);
        return;
    }
    for (const auto& e : endpoints) {
        if (!is_sentinel_endpoint(e)) throw std::invalid_argument("endpoint '" + e + "' mixes servers and sentinels");
        sentinels_.push_back(std::make_unique<RedisConnection>(e.substr(kSentinelPrefix.size()), options_));
    }
}

void RedisPrimary::refresh() {
    for (auto& sentinel : sentinels_) {
        auto outcome = sentinel->command({"SENTINEL", "get-master-addr-by-name", kMasterName});
        const redisReply* r = outcome.reply.get();
        if (outcome.kind != RedisOutcome::Kind::Reply || r->type != REDIS_REPLY_ARRAY || r->elements != 2) continue;
        const std::string address = std::string(r->element[0]->str, r->element[0]->len) + ":" +
                                    std::string(r->element[1]->str, r->element[1]->len);
        if (!connection_ || connection_->endpoint() != address)
            connection_ = std::make_unique<RedisConnection>(address, options_);
        return;
    }
}

RedisOutcome RedisPrimary::command(const std::vector<std::string>& argv) {
    if (!connection_) refresh();
    if (!connection_) {
        RedisOutcome none;
        none.kind = RedisOutcome::Kind::NotSent;
        none.error = "no sentinel named a primary";
        return none;
    }
    auto outcome = connection_->command(argv);
    if (outcome.kind != RedisOutcome::Kind::Reply) refresh();
    return outcome;
}

}  // namespace lockcheck
