// The hold a worker times on its own clock (capability "hold"): it ends
// early, with fail "validity-ended", when the lock's validity runs out first,
// and refuses values that are not durations. No timing assertions: the holds
// here last 0 ms or end at a validity that has already passed.
#include <gtest/gtest.h>

#include <string>

#include "core/op.hpp"
#include "recipes/client_hold.hpp"
#include "recipes/lock_client.hpp"

using namespace lockcheck;

namespace {

LockResult granted_with_validity(std::int64_t valid_ms) {
    LockResult result = LockResult::ok(7);
    result.valid_ms = valid_ms;
    return result;
}

/// A lock whose acquire reports `valid_ms` (as Redlock does), or none.
class ValidityLock : public LockClient {
public:
    std::optional<std::int64_t> valid_ms;
    LockResult acquire(const LockRequest&) override {
        return valid_ms ? granted_with_validity(*valid_ms) : LockResult::ok(1);
    }
    LockResult release(const LockRequest&) override { return LockResult::ok(); }
};

WorkerRequest request(std::string_view f, const nlohmann::json& value = nullptr) {
    WorkerRequest r;
    r.f = std::string(f);
    r.key = "lock";
    r.owner = "w1-1";
    r.value = value;
    return r;
}

}  // namespace

TEST(ClientHolds, AHoldWithoutAKnownValidityRunsItsLength) {
    ClientHolds holds;
    EXPECT_EQ(holds.hold("w1-1", 0).type, OpType::Ok);
    holds.granted("w1-1", LockResult::ok(3));  // a grant without valid_ms bounds nothing
    EXPECT_EQ(holds.hold("w1-1", 0).type, OpType::Ok);
}

TEST(ClientHolds, AValidityThatRunsOutFirstEndsTheHoldUnfinished) {
    ClientHolds holds;
    holds.granted("w1-1", granted_with_validity(-5));  // already over when the grant arrived
    const LockResult held = holds.hold("w1-1", 60'000);
    EXPECT_EQ(held.type, OpType::Fail);
    EXPECT_EQ(held.error, std::string(err::kValidityEnded));
    EXPECT_EQ(holds.hold("w2-1", 0).type, OpType::Ok) << "another owner's validity is its own";
}

TEST(ClientHolds, AReleaseForgetsTheValidity) {
    ClientHolds holds;
    holds.granted("w1-1", granted_with_validity(0));
    holds.released("w1-1");
    EXPECT_EQ(holds.hold("w1-1", 0).type, OpType::Ok);
}

TEST(ClientHolds, AFailedAcquireLeavesNoValidity) {
    ClientHolds holds;
    LockResult refused = LockResult::fail("held");
    refused.valid_ms = -1;
    holds.granted("w1-1", refused);
    EXPECT_EQ(holds.hold("w1-1", 0).type, OpType::Ok);
}

TEST(ClientHolds, ValuesThatAreNotDurationsAreRefused) {
    ClientHolds holds;
    for (const nlohmann::json& bad : {nlohmann::json(-1), nlohmann::json("100"), nlohmann::json(nullptr),
                                      nlohmann::json(1.5), nlohmann::json(kMaxLeaseMs + 1)}) {
        const LockResult held = holds.hold("w1-1", bad);
        EXPECT_EQ(held.type, OpType::Fail) << bad.dump();
        EXPECT_NE(held.error.value_or("").find("hold needs a value"), std::string::npos) << bad.dump();
    }
}

TEST(LockClientHold, TheGrantsValidityBoundsTheHoldThroughInvoke) {
    ValidityLock lock;
    lock.valid_ms = -1;
    EXPECT_EQ(lock.invoke(request("acquire")).type, OpType::Ok);
    const LockResult held = lock.invoke(request("hold", 60'000));
    EXPECT_EQ(held.type, OpType::Fail);
    EXPECT_EQ(held.error, std::string(err::kValidityEnded));
    EXPECT_EQ(lock.invoke(request("release")).type, OpType::Ok);
    EXPECT_EQ(lock.invoke(request("hold", 0)).type, OpType::Ok) << "released: no validity left to bound it";
}

TEST(LockClientHold, WithoutValidityTheHoldIsDone) {
    ValidityLock lock;
    EXPECT_EQ(lock.invoke(request("acquire")).type, OpType::Ok);
    EXPECT_EQ(lock.invoke(request("hold", 0)).type, OpType::Ok);
}
