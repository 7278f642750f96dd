// Byte integrity through the fault proxy: seeded random streams, both ways at
// once, under every fault that promises delivery (pass, delay with jitter,
// slow-reply, bandwidth, a drop that heals, faults changing mid-stream),
// must arrive byte-identical and in order.
#include <gtest/gtest.h>

#include <future>
#include <random>

#include "netproxy/proxy_server.hpp"
#include "tests/netproxy/netproxy_test_support.hpp"

namespace lockcheck::netproxy {
namespace {

using namespace std::chrono_literals;
using testing::PolledConnection;
using testing::StreamExchange;
using testing::TestServer;

constexpr std::size_t kHeaderBytes = 16;  // start_stream_client's header, counted by the proxy too

class NetproxyStreams : public ::testing::Test {
protected:
    using Clients = std::vector<std::unique_ptr<StreamExchange>>;

    /// Connects one client per size, each with its own seed, through the proxy.
    Clients connect_clients(const std::vector<std::size_t>& sizes, std::uint64_t first_seed) {
        Clients clients;
        for (std::size_t i = 0; i < sizes.size(); ++i)
            clients.push_back(testing::start_stream_client(link.listen, first_seed + i, sizes[i]));
        return clients;
    }

    /// Runs the clients to the end within `budget`; every client and every
    /// server connection must report "ok". Returns the time it took.
    Clock::duration finish(Clients& clients, std::chrono::milliseconds budget) {
        const auto started = Clock::now();
        std::vector<PolledConnection*> polled;
        for (auto& client : clients) polled.push_back(client.get());
        EXPECT_TRUE(testing::run_until_finished(polled, budget)) << "the exchanges did not finish within budget";
        const auto took = Clock::now() - started;
        for (std::size_t i = 0; i < clients.size(); ++i) EXPECT_EQ(clients[i]->outcome(), "ok") << "client " << i;
        EXPECT_TRUE(testing::eventually([&] { return server.outcomes().size() == clients.size(); }, 5s));
        for (const auto& outcome : server.outcomes()) EXPECT_EQ(outcome, "ok") << "a server connection";
        return took;
    }

    Clock::duration exchange(const std::vector<std::size_t>& sizes, std::uint64_t first_seed,
                             std::chrono::milliseconds budget) {
        auto clients = connect_clients(sizes, first_seed);
        return finish(clients, budget);
    }

    TestServer server{testing::serve_stream};
    ProxyServer proxy;
    LinkInfo link = proxy.add_link({"127.0.0.1", 0}, server.endpoint());
};

TEST_F(NetproxyStreams, PassDeliversEveryByteInOrderBothWays) {
    constexpr std::size_t size = 4 * 1024 * 1024;
    exchange({size}, 11, 30s);
    const auto stats = proxy.stats(link.id);
    EXPECT_EQ(stats.to_server.forwarded, kHeaderBytes + size);
    EXPECT_EQ(stats.to_client.forwarded, size);
    EXPECT_EQ(stats.to_server.discarded + stats.to_client.discarded, 0u);
    EXPECT_EQ(stats.accepted, 1u);
    EXPECT_TRUE(testing::eventually([&] { return proxy.stats(link.id).open == 0; }, 5s));
}

TEST_F(NetproxyStreams, DelayWithJitterKeepsOrder) {
    // Jitter far above the time between two reads: chunks would overtake
    // each other if release times could decrease.
    proxy.set_fault(link.id, faults::delay(2ms, 5ms));
    const auto took = exchange({2 * 1024 * 1024}, 21, 60s);
    EXPECT_GE(took, 4ms);
}

TEST_F(NetproxyStreams, SlowReplyDelaysOnlyTheRepliesAndKeepsThemIntact) {
    proxy.add_rule(link.id, selectors::all(), faults::slow_reply(100ms));
    const auto took = exchange({2 * 1024 * 1024}, 31, 60s);
    EXPECT_GE(took, 100ms);
}

TEST_F(NetproxyStreams, BandwidthLimitPacesAndKeepsEveryByte) {
    constexpr std::uint64_t rate = 4'000'000;
    proxy.set_fault(link.id, faults::bandwidth(rate));
    const auto took = exchange({1024 * 1024}, 41, 30s);
    // 1 MiB at 4 MB/s is 262 ms; the bucket's first burst (20 ms) comes free.
    EXPECT_GE(took, 200ms);
    EXPECT_LT(took, 5s);
}

TEST_F(NetproxyStreams, FiftyConnectionsEachGetTheirOwnStream) {
    proxy.set_fault(link.id, faults::delay(1ms, 2ms));
    std::mt19937_64 random(51);
    std::vector<std::size_t> sizes;
    for (int i = 0; i < 50; ++i)
        sizes.push_back(std::uniform_int_distribution<std::size_t>(16 * 1024, 256 * 1024)(random));
    exchange(sizes, 5100, 60s);
    EXPECT_EQ(proxy.stats(link.id).accepted, 50u);
}

TEST_F(NetproxyStreams, DropStallsTheStreamAndHealResumesIt) {
    // Paced (4 MiB at 4 MB/s ≈ 1 s) so that the drop comes mid-stream.
    constexpr std::size_t size = 4 * 1024 * 1024;
    proxy.set_fault(link.id, faults::bandwidth(4'000'000));
    auto clients = connect_clients({size}, 61);
    std::vector<PolledConnection*> polled{clients[0].get()};
    auto running = std::async(std::launch::async, [&] { return testing::run_until_finished(polled, 60s); });
    ASSERT_TRUE(testing::eventually([&] { return server.bytes_received() > 512 * 1024; }, 10s));
    proxy.set_fault(link.id, faults::drop());
    // Bytes already in the kernel's buffers toward the server may still land; then nothing.
    std::this_thread::sleep_for(100ms);
    const auto stalled_at = server.bytes_received();
    const auto forwarded_at = proxy.stats(link.id).to_server.forwarded;
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(server.bytes_received(), stalled_at);
    EXPECT_EQ(proxy.stats(link.id).to_server.forwarded, forwarded_at);
    EXPECT_LT(stalled_at, kHeaderBytes + size) << "the drop came after the stream had ended";
    proxy.heal(link.id);
    EXPECT_TRUE(running.get());
    EXPECT_EQ(clients[0]->outcome(), "ok");
    EXPECT_TRUE(testing::eventually([&] { return server.outcomes().size() == 1; }, 5s));
    EXPECT_EQ(server.outcomes().at(0), "ok");
}

TEST_F(NetproxyStreams, FaultChangesWhileStreamsFlow) {
    LinkFault only_requests_stalled;
    only_requests_stalled.to_server.flow = Flow::stall;
    const std::vector<LinkFault> cycle = {
        faults::delay(1ms, 3ms),
        faults::drop(),
        faults::bandwidth(2'000'000),
        only_requests_stalled,
        faults::slow_reply(20ms),
        faults::pass(),
        combine(faults::delay(0ms, 4ms), faults::bandwidth(8'000'000)),
    };
    // Every fault of the cycle also caps each direction at 4 MB/s, so that
    // the 2 MiB streams flow for at least half a second of changes.
    auto clients = connect_clients(std::vector<std::size_t>(8, 2 * 1024 * 1024), 71);
    std::atomic<bool> done{false};
    std::atomic<int> changes{0};
    std::thread changer([&] {
        // The rule in force, if any (a vector: g++ 12 takes an optional's
        // engaged value for maybe-uninitialized here).
        std::vector<RuleId> rules;
        for (std::size_t i = 0; !done; ++i) {
            proxy.set_fault(link.id, combine(cycle[i % cycle.size()], faults::bandwidth(4'000'000)));
            for (const RuleId rule : rules) proxy.remove_rule(rule);
            rules.clear();
            if (i % 3 == 0)
                rules.push_back(proxy.add_rule(link.id, selectors::connection(1 + i % 8), faults::slow_reply(5ms)));
            ++changes;
            std::this_thread::sleep_for(10ms);
        }
        proxy.heal(link.id);
    });
    std::vector<PolledConnection*> polled;
    for (auto& client : clients) polled.push_back(client.get());
    const bool finished = testing::run_until_finished(polled, 90s);
    done = true;
    changer.join();
    EXPECT_TRUE(finished);
    EXPECT_GE(changes.load(), 2 * static_cast<int>(cycle.size()))
        << "the streams ended before the faults went round twice";
    for (std::size_t i = 0; i < clients.size(); ++i) EXPECT_EQ(clients[i]->outcome(), "ok") << "client " << i;
    EXPECT_TRUE(testing::eventually([&] { return server.outcomes().size() == clients.size(); }, 5s));
    for (const auto& outcome : server.outcomes()) EXPECT_EQ(outcome, "ok");
}

}  // namespace
}  // namespace lockcheck::netproxy
