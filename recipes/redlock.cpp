#include "recipes/redlock.hpp"

#include <iostream>
#include <thread>

#include "recipes/redis_replies.hpp"

namespace lockcheck {

Redlock::Redlock(const std::vector<std::string>& endpoints, const ConnectionOptions& connection, bool check_validity)
    : rng_(std::random_device{}()), check_validity_(check_validity) {
    for (const auto& e : endpoints) nodes_.push_back(std::make_unique<RedisConnection>(e, connection));
}

Redlock::Votes Redlock::try_once(const LockRequest& request) {
    Votes votes;
    for (auto& node : nodes_) {
        auto outcome = node->command({"SET", request.key, request.owner, "NX", "PX", std::to_string(request.ttl_ms)});
        if (outcome.kind != RedisOutcome::Kind::Reply || outcome.is_error_reply()) continue;
        if (outcome.reply->type == REDIS_REPLY_STATUS)
            ++votes.ok;
        else if (outcome.reply->type == REDIS_REPLY_NIL)
            ++votes.held;
    }
    return votes;
}

std::pair<int, int> Redlock::release_everywhere(const LockRequest& request) {
    int deleted = 0, answered = 0;
    for (auto& node : nodes_) {
        auto outcome = node->command({"EVAL", kCompareAndDeleteScript, "1", request.key, request.owner});
        if (outcome.kind != RedisOutcome::Kind::Reply || outcome.is_error_reply()) continue;
        ++answered;
        if (outcome.reply->type == REDIS_REPLY_INTEGER && outcome.reply->integer == 1) ++deleted;
    }
    return {deleted, answered};
}

LockResult Redlock::acquire(const LockRequest& request) {
    const auto ttl = std::chrono::milliseconds(request.ttl_ms);
    const auto drift = ttl / 100 + std::chrono::milliseconds(2);
    bool validity_ran_out = false;  // some attempt had a majority but no validity left
    for (int attempt = 1;; ++attempt) {
        const auto start = std::chrono::steady_clock::now();
        const Votes votes = try_once(request);
        const auto elapsed =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        const auto validity = ttl - elapsed - drift;
        LockResult granted = LockResult::ok();
        granted.valid_ms = validity.count();  // the controller records what the client knew of its lease
        if (votes.ok >= quorum() && validity.count() > 0) return granted;
        if (votes.ok >= quorum()) {  // the replies came too late to use the grant: the worker's log says so
            std::cerr << "redlock: attempt " << attempt << " had a majority after " << elapsed.count()
                      << " ms: no validity left (ttl " << ttl.count() << " ms, drift " << drift.count() << " ms); "
                      << (check_validity_ ? "releasing" : "taken anyway (validity_check false)") << "\n";
            if (!check_validity_) return granted;
            validity_ran_out = true;
        }
        release_everywhere(request);
        if (votes.held >= quorum()) return LockResult::fail(std::string(err::kHeld));
        if (attempt == kAttempts)
            return LockResult::fail(validity_ran_out ? "validity expired while acquiring" : std::string(err::kHeld));
        std::uniform_int_distribution<std::int64_t> delay(0, kRetryDelayMax.count());
        std::this_thread::sleep_for(std::chrono::milliseconds(delay(rng_)));
    }
}

LockResult Redlock::release(const LockRequest& request) {
    const auto [deleted, answered] = release_everywhere(request);
    if (deleted > 0) return LockResult::ok();
    if (answered == static_cast<int>(nodes_.size())) return LockResult::fail(std::string(err::kNotOwner));
    return LockResult::info("no node deleted the lock and some did not answer");
}

}  // namespace lockcheck
