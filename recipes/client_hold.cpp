#include "recipes/client_hold.hpp"

#include <algorithm>
#include <thread>

#include "core/json_integer.hpp"
#include "core/op.hpp"

namespace lockcheck {

void ClientHolds::granted(const std::string& owner, const LockResult& result) {
    if (result.type != OpType::Ok || !result.valid_ms) return;
    validity_ends_[owner] = std::chrono::steady_clock::now() + std::chrono::milliseconds(*result.valid_ms);
}

void ClientHolds::released(const std::string& owner) { validity_ends_.erase(owner); }

LockResult ClientHolds::hold(const std::string& owner, const nlohmann::json& ms) const {
    const auto duration = json_integer<std::int64_t>(ms);
    if (!duration || *duration < 0 || *duration > kMaxLeaseMs)
        return LockResult::fail("hold needs a value of 0.." + std::to_string(kMaxLeaseMs) + " ms");
    const auto done = std::chrono::steady_clock::now() + std::chrono::milliseconds(*duration);
    const auto validity = validity_ends_.find(owner);
    if (validity != validity_ends_.end() && validity->second < done) {
        sleep_until_own_clock(validity->second);
        return LockResult::fail(std::string(err::kValidityEnded));
    }
    sleep_until_own_clock(done);
    return LockResult::ok();
}

void sleep_until_own_clock(std::chrono::steady_clock::time_point until) {
    constexpr auto kRecheck = std::chrono::milliseconds(5);
    for (auto now = std::chrono::steady_clock::now(); now < until; now = std::chrono::steady_clock::now())
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(until - now, kRecheck));
}

}  // namespace lockcheck
