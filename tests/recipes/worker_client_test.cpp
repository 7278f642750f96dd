// The generic request path: every request reaches a client through invoke(),
// and each workload family serves its own ops and refuses the others.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/stock_client.hpp"
#include "recipes/unique_id_client.hpp"

using namespace lockcheck;

namespace {

/// A lock client that records each call as "<op> <key> <owner> <ttl>" and answers ok with a token.
class RecordingLock : public LockClient {
public:
    bool inside = false;
    bool leased = true;
    std::vector<std::string> calls;

    LockResult acquire(const LockRequest& r) override { return note("acquire", r); }
    LockResult release(const LockRequest& r) override { return note("release", r); }
    LockResult renew(const LockRequest& r) override { return note("renew", r); }
    bool owns_resource() const override { return inside; }
    LockResult read(const LockRequest& r) override {
        note("read", r);
        LockResult result = LockResult::ok();
        result.value = 41;
        return result;
    }
    LockResult write(const LockRequest& r, std::int64_t value) override {
        return note("write=" + std::to_string(value), r);
    }
    bool has_lease() const override { return leased; }

private:
    LockResult note(const std::string& op, const LockRequest& r) {
        calls.push_back(op + " " + r.key + " " + r.owner + " " + std::to_string(r.ttl_ms));
        return LockResult::ok(static_cast<std::int64_t>(calls.size()));
    }
};

/// A stock client that records each call as "<op> <key>".
class RecordingStock : public StockClient {
public:
    std::vector<std::string> calls;
    LockResult stock_init(const std::string& key) override { return note("stock-init", key); }
    LockResult decrement(const std::string& key) override { return note("decrement", key); }
    LockResult stock_read(const std::string& key) override { return note("stock-read", key); }

private:
    LockResult note(const std::string& op, const std::string& key) {
        calls.push_back(op + " " + key);
        return LockResult::ok();
    }
};

/// An id generator that records each key it was asked for and hands out 1, 2, 3, ...
class CountingIds : public UniqueIdClient {
public:
    std::vector<std::string> keys;
    LockResult generate_id(const std::string& key) override {
        keys.push_back(key);
        return generated_id(static_cast<std::int64_t>(keys.size()));
    }
};

WorkerRequest request(std::string f, nlohmann::json value = nullptr) {
    return {1, std::move(f), "lock", "w1-1", 900, std::move(value)};
}

}  // namespace

TEST(LockClientInvoke, LockOpsReachTheirMethodsWithTheRequestFields) {
    RecordingLock lock;
    EXPECT_EQ(lock.invoke(request("acquire")).token, 1);
    lock.invoke(request("renew"));
    lock.invoke(request("release"));
    EXPECT_EQ(lock.calls,
              (std::vector<std::string>{"acquire lock w1-1 900", "renew lock w1-1 900", "release lock w1-1 900"}));
}

TEST(LockClientInvoke, ReadAndWriteAreCheckpointsUnlessTheClientOwnsTheResource) {
    RecordingLock lock;
    EXPECT_EQ(lock.invoke(request("read")).type, OpType::Ok);
    EXPECT_EQ(lock.invoke(request("write", 6)).type, OpType::Ok);
    EXPECT_TRUE(lock.calls.empty());

    lock.inside = true;
    EXPECT_EQ(lock.invoke(request("read")).value, 41);
    lock.invoke(request("write", 42));
    EXPECT_EQ(lock.calls, (std::vector<std::string>{"read lock w1-1 900", "write=42 lock w1-1 900"}));
    const auto no_integer = lock.invoke(request("write", "42"));
    EXPECT_EQ(no_integer.type, OpType::Fail);
    EXPECT_EQ(no_integer.error, "write needs an integer value");
}

TEST(LockClientInvoke, OtherWorkloadsOpsFailUnsupported) {
    RecordingLock lock;
    const auto result = lock.invoke(request("decrement"));
    EXPECT_EQ(result.type, OpType::Fail);
    EXPECT_EQ(result.error, "unsupported op 'decrement'");
    EXPECT_TRUE(lock.calls.empty());
}

TEST(LockClientCapabilities, ResourceAndNoLeaseFollowTheInstance) {
    RecordingLock lock;
    EXPECT_EQ(lock.capabilities(), (std::vector<std::string>{"hold"}));
    lock.inside = true;
    lock.leased = false;
    EXPECT_EQ(lock.capabilities(), (std::vector<std::string>{"hold", "resource", "no-lease"}));
}

TEST(StockClientInvoke, StockOpsReachTheirMethodsAndLockOpsFail) {
    RecordingStock stock;
    stock.invoke(request("stock-init"));
    stock.invoke(request("decrement"));
    stock.invoke(request("stock-read"));
    EXPECT_EQ(stock.calls, (std::vector<std::string>{"stock-init lock", "decrement lock", "stock-read lock"}));
    for (const char* f : {"acquire", "release", "read", "write"}) {
        const auto result = stock.invoke(request(f));
        EXPECT_EQ(result.type, OpType::Fail) << f;
        EXPECT_EQ(result.error, std::string("unsupported op '") + f + "'");
    }
    EXPECT_TRUE(stock.capabilities().empty());
}

TEST(UniqueIdClientInvoke, GenerateIdReachesItsMethodAndAnswersTheId) {
    CountingIds ids;
    const auto first = ids.invoke(request("generate-id"));
    EXPECT_EQ(first.type, OpType::Ok);
    EXPECT_EQ(first.value, (nlohmann::json{{"id", 1}}));
    EXPECT_EQ(ids.invoke(request("generate-id")).value, (nlohmann::json{{"id", 2}}));
    EXPECT_EQ(ids.keys, (std::vector<std::string>{"lock", "lock"}));
}

TEST(UniqueIdClientInvoke, LockAndStockOpsFailUnsupported) {
    CountingIds ids;
    for (const char* f : {"acquire", "release", "read", "write", "decrement", "stock-read"}) {
        const auto result = ids.invoke(request(f));
        EXPECT_EQ(result.type, OpType::Fail) << f;
        EXPECT_EQ(result.error, std::string("unsupported op '") + f + "'");
    }
    EXPECT_TRUE(ids.keys.empty());
    EXPECT_TRUE(ids.capabilities().empty());
}

TEST(StockClientInvoke, GenerateIdFailsUnsupported) {
    RecordingStock stock;
    EXPECT_EQ(stock.invoke(request("generate-id")).error, "unsupported op 'generate-id'");
    EXPECT_TRUE(stock.calls.empty());
}
