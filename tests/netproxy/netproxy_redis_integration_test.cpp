// The fault proxy in front of a real redis-server (127.0.0.1, an ephemeral
// port, a temporary directory), with a hiredis client: PING through the
// proxy, a slow reply of 300 ms on the client's connection only, and a reset
// the client sees as an error.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "host/child_process.hpp"
#include "clusters/servers/redis_node.hpp"
#include "netproxy/proxy_server.hpp"
#include "netproxy/socket_ops.hpp"
#include "tests/netproxy/netproxy_test_support.hpp"

namespace lockcheck::netproxy {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

struct RedisContextFree {
    void operator()(redisContext* context) const { redisFree(context); }
};
using RedisClient = std::unique_ptr<redisContext, RedisContextFree>;

RedisClient connect_redis(const Endpoint& endpoint) {
    const timeval timeout{2, 0};
    RedisClient client(redisConnectWithTimeout(endpoint.address.c_str(), endpoint.port, timeout));
    if (!client || client->err) throw std::runtime_error("cannot connect to " + to_string(endpoint));
    redisSetTimeout(client.get(), timeout);
    return client;
}

/// The reply's text ("PONG"), or "error: <hiredis's message>".
std::string command(redisContext* client, const char* text) {
    auto* reply = static_cast<redisReply*>(redisCommand(client, text));
    if (!reply) return std::string("error: ") + client->errstr;
    std::string result = reply->str ? std::string(reply->str, reply->len) : "";
    freeReplyObject(reply);
    return result;
}

/// How long a PING takes, checking that it is answered.
Clock::duration timed_ping(redisContext* client) {
    const auto started = Clock::now();
    EXPECT_EQ(command(client, "PING"), "PONG");
    return Clock::now() - started;
}

class NetproxyRedis : public ::testing::Test {
protected:
    void SetUp() override {
        char pattern[] = "/tmp/lockcheck-netproxy-redis-XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        dir_ = pattern;
        // A free ephemeral port, released for redis-server to bind; another
        // process could take it in between, so try a few.
        for (int attempt = 0; attempt < 3 && !redis_; ++attempt) {
            {
                const auto reserved = listen_on({"127.0.0.1", 0});
                redis_endpoint_ = local_endpoint(reserved.get());
            }
            auto server = std::make_unique<ChildProcess>(
                ChildSpec{{"redis-server", "--bind", "127.0.0.1", "--port", std::to_string(redis_endpoint_.port),
                           "--save", "", "--appendonly", "no", "--protected-mode", "no", "--dir", dir_.string()},
                          std::nullopt,
                          dir_ / "redis.log"});
            if (testing::eventually([&] { return redis_answers_ping("127.0.0.1", redis_endpoint_.port, ""); }, 10s))
                redis_ = std::move(server);
        }
        ASSERT_TRUE(redis_) << "redis-server did not start; see " << (dir_ / "redis.log");
        link_ = proxy_.add_link({"127.0.0.1", 0}, redis_endpoint_);
    }

    void TearDown() override {
        proxy_.stop();
        if (redis_) redis_->stop(3s);
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    fs::path dir_;
    Endpoint redis_endpoint_;
    std::unique_ptr<ChildProcess> redis_;
    ProxyServer proxy_;
    LinkInfo link_;
};

TEST_F(NetproxyRedis, PingGoesThroughAndTheServerSeesTheProxy) {
    auto client = connect_redis(link_.listen);
    EXPECT_EQ(command(client.get(), "PING"), "PONG");
    const auto connections = proxy_.connections(link_.id);
    ASSERT_EQ(connections.size(), 1u);
    EXPECT_EQ(connections[0].client, local_endpoint(client->fd));
    // CLIENT LIST names the proxy's upstream socket: selectors::upstream_local can find it.
    EXPECT_NE(command(client.get(), "CLIENT LIST").find("addr=" + to_string(connections[0].upstream_local)),
              std::string::npos);
}

TEST_F(NetproxyRedis, SlowReplyOnTheClientsConnectionDelaysItsReplies) {
    auto holder = connect_redis(link_.listen);
    auto other = connect_redis(link_.listen);
    EXPECT_LT(timed_ping(holder.get()), 200ms);
    const RuleId rule =
        proxy_.add_rule(link_.id, selectors::client(local_endpoint(holder->fd)), faults::slow_reply(300ms));
    EXPECT_GE(timed_ping(holder.get()), 300ms);
    EXPECT_LT(timed_ping(other.get()), 200ms) << "only the chosen connection is slowed";
    // The request reached the server at once: a SET is applied before its reply arrives.
    const auto started = Clock::now();
    EXPECT_EQ(command(holder.get(), "SET lock holder PX 1000"), "OK");
    EXPECT_GE(Clock::now() - started, 300ms);
    proxy_.remove_rule(rule);
    EXPECT_LT(timed_ping(holder.get()), 200ms);
}

TEST_F(NetproxyRedis, ResetGivesTheClientAnError) {
    auto client = connect_redis(link_.listen);
    EXPECT_EQ(command(client.get(), "PING"), "PONG");
    proxy_.set_fault(link_.id, faults::reset());
    EXPECT_EQ(command(client.get(), "PING"), "error: Connection reset by peer");
    // A new connection is accepted, then reset at once: hiredis sees the reset
    // while it completes the connect, or on the first command.
    const timeval timeout{2, 0};
    RedisClient during(redisConnectWithTimeout(link_.listen.address.c_str(), link_.listen.port, timeout));
    ASSERT_TRUE(during);
    if (!during->err) {
        EXPECT_EQ(command(during.get(), "PING").substr(0, 6), "error:");
    }
    proxy_.heal(link_.id);
    auto after = connect_redis(link_.listen);
    EXPECT_EQ(command(after.get(), "PING"), "PONG");
}

}  // namespace
}  // namespace lockcheck::netproxy
