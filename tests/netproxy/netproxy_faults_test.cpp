// What a client observes through the fault proxy under each fault (blackhole,
// reset, drop, slow-reply on one connection, delay, backpressure), the API's
// errors, and the proxy's lifecycle: no descriptor or thread left after stop.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "netproxy/proxy_server.hpp"
#include "netproxy/socket_ops.hpp"
#include "tests/netproxy/netproxy_test_support.hpp"

namespace lockcheck::netproxy {
namespace {

using namespace std::chrono_literals;
using testing::TestServer;

/// The time a byte sent on `fd` takes to come back (the echo's round trip).
Clock::duration echo_round_trip(int fd, const std::string& message) {
    const auto started = Clock::now();
    testing::send_all(fd, message);
    const auto echoed = testing::receive(fd, message.size(), 5s);
    EXPECT_EQ(echoed.bytes, message);
    return Clock::now() - started;
}

class NetproxyEcho : public ::testing::Test {
protected:
    TestServer server{testing::serve_echo};
    ProxyServer proxy;
    LinkInfo link = proxy.add_link({"127.0.0.1", 0}, server.endpoint());
};

TEST_F(NetproxyEcho, PassEchoes) {
    const auto client = testing::connect_to(link.listen);
    echo_round_trip(client.get(), "ping");
    EXPECT_EQ(proxy.connections(link.id).size(), 1u);
}

TEST_F(NetproxyEcho, BlackholeAcceptsAndNeverAnswersNorCloses) {
    const auto before = testing::connect_to(link.listen);
    echo_round_trip(before.get(), "warm");
    proxy.set_fault(link.id, faults::blackhole());
    const auto during = testing::connect_to(link.listen);  // accepted: connect() succeeds
    testing::send_all(before.get(), "ping");
    testing::send_all(during.get(), "ping");
    for (const int fd : {before.get(), during.get()}) {
        const auto answer = testing::receive(fd, 1, 500ms);
        EXPECT_EQ(answer.bytes, "");
        EXPECT_FALSE(answer.eof) << "blackhole must not close (FIN)";
        EXPECT_EQ(answer.error, 0) << "blackhole must not reset";
    }
    EXPECT_EQ(server.bytes_received(), 4u) << "only the bytes sent before the blackhole reached the server";
    EXPECT_EQ(proxy.stats(link.id).to_server.discarded, 8u);
    // After the heal the discarded bytes stay lost; later bytes flow again.
    proxy.heal(link.id);
    echo_round_trip(before.get(), "after");
    echo_round_trip(during.get(), "after");
}

TEST_F(NetproxyEcho, ResetGivesEconnresetToOpenAndNewConnections) {
    const auto before = testing::connect_to(link.listen);
    echo_round_trip(before.get(), "warm");
    proxy.set_fault(link.id, faults::reset());
    EXPECT_EQ(testing::receive(before.get(), 1, 2s).error, ECONNRESET);
    const auto during = testing::connect_to(link.listen);  // accepted, then reset
    EXPECT_EQ(testing::receive(during.get(), 1, 2s).error, ECONNRESET);
    EXPECT_TRUE(testing::eventually([&] { return !server.outcomes().empty(); }, 2s));
    EXPECT_EQ(server.outcomes().at(0), "reset") << "the server side is reset too";
    EXPECT_EQ(proxy.stats(link.id).reset_by_fault, 2u);
    EXPECT_TRUE(proxy.connections(link.id).empty());
    proxy.heal(link.id);
    const auto after = testing::connect_to(link.listen);
    echo_round_trip(after.get(), "again");
}

TEST_F(NetproxyEcho, DropStallsBothWaysHangsConnectsAndHealDeliversTheQueue) {
    const auto before = testing::connect_to(link.listen);
    echo_round_trip(before.get(), "warm");
    proxy.set_fault(link.id, faults::drop());
    testing::send_all(before.get(), "held");
    const auto connecting = testing::start_connect_to(link.listen);
    const auto answer = testing::receive(before.get(), 1, 300ms);
    EXPECT_EQ(answer.bytes, "");
    EXPECT_FALSE(answer.eof);
    EXPECT_EQ(answer.error, 0);
    EXPECT_EQ(server.bytes_received(), 4u) << "nothing passes toward the server";
    EXPECT_FALSE(testing::connect_completes(connecting.get(), 300ms)) << "a new connect hangs (SYN dropped)";
    proxy.heal(link.id);
    EXPECT_EQ(testing::receive(before.get(), 4, 2s).bytes, "held");
    // The client's kernel retries the SYN (1 s, then 3 s ...).
    ASSERT_TRUE(testing::connect_completes(connecting.get(), 5s));
    echo_round_trip(connecting.get(), "late");
}

TEST_F(NetproxyEcho, DropHoldsRepliesAlreadyDelayedAndHealReleasesThemInOrder) {
    const auto client = testing::connect_to(link.listen);
    proxy.set_fault(link.id, faults::slow_reply(200ms));
    testing::send_all(client.get(), "abc");
    ASSERT_TRUE(testing::eventually(
        [&] { return proxy.stats(link.id).to_client.forwarded == 0 && server.bytes_received() == 3; }, 2s));
    proxy.set_fault(link.id, faults::drop());
    EXPECT_EQ(testing::receive(client.get(), 1, 400ms).bytes, "") << "queued replies wait during the drop";
    testing::send_all(client.get(), "def");
    proxy.heal(link.id);
    EXPECT_EQ(testing::receive(client.get(), 6, 2s).bytes, "abcdef");
}

TEST_F(NetproxyEcho, DelayAddsLatencyBothWays) {
    const auto client = testing::connect_to(link.listen);
    proxy.set_fault(link.id, faults::delay(100ms));
    EXPECT_GE(echo_round_trip(client.get(), "x"), 200ms);
    proxy.set_fault(link.id, faults::pass());
    EXPECT_LT(echo_round_trip(client.get(), "y"), 100ms);
}

TEST_F(NetproxyEcho, SlowReplyRuleHitsOnlyTheSelectedConnection) {
    std::mutex mutex;
    std::vector<ConnectionInfo> accepted;
    ProxyServer observed(ProxyOptions{.on_accept = [&](const ConnectionInfo& info) {
        std::lock_guard lock(mutex);
        accepted.push_back(info);
    }});
    const auto observed_link = observed.add_link({"127.0.0.1", 0}, server.endpoint());
    const auto holder = testing::connect_to(observed_link.listen);
    const auto other = testing::connect_to(observed_link.listen);
    echo_round_trip(holder.get(), "a");
    echo_round_trip(other.get(), "b");
    {
        std::lock_guard lock(mutex);
        ASSERT_EQ(accepted.size(), 2u);
        EXPECT_EQ(accepted[0].client, local_endpoint(holder.get())) << "on_accept reports the client's own address";
        EXPECT_NE(accepted[0].upstream_local.port, 0);
    }
    const RuleId rule =
        observed.add_rule(observed_link.id, selectors::client(local_endpoint(holder.get())), faults::slow_reply(300ms));
    EXPECT_GE(echo_round_trip(holder.get(), "slow"), 300ms);
    EXPECT_LT(echo_round_trip(other.get(), "fast"), 100ms);
    observed.remove_rule(rule);
    EXPECT_LT(echo_round_trip(holder.get(), "fast again"), 100ms);
}

TEST_F(NetproxyEcho, AnUnreachableUpstreamResetsTheClient) {
    Endpoint closed_port;
    {
        const auto reserved = listen_on({"127.0.0.1", 0});
        closed_port = local_endpoint(reserved.get());
    }
    const auto nowhere = proxy.add_link({"127.0.0.1", 0}, closed_port);
    const auto client = testing::connect_to(nowhere.listen);
    EXPECT_EQ(testing::receive(client.get(), 1, 2s).error, ECONNRESET);
}

TEST(NetproxyBackpressure, AServerThatNeverReadsStopsTheClient) {
    TestServer silent(testing::serve_silence);
    ProxyServer proxy(ProxyOptions{.buffer_bytes = 64 * 1024, .seed = 1, .on_accept = {}});
    const auto link = proxy.add_link({"127.0.0.1", 0}, silent.endpoint());
    const auto client = testing::connect_to(link.listen);
    // Without backpressure the proxy would read forever and the client never block.
    const std::string block(64 * 1024, 'x');
    std::size_t written = 0;
    bool blocked = false;
    const auto deadline = Clock::now() + 10s;
    while (written < 256u * 1024 * 1024 && Clock::now() < deadline) {
        const ssize_t count = ::send(client.get(), block.data(), block.size(), MSG_NOSIGNAL);
        if (count > 0) {
            written += static_cast<std::size_t>(count);
            continue;
        }
        ASSERT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK) << std::strerror(errno);
        // The proxy may still be draining the client's buffer: blocked only if it stays full.
        std::this_thread::sleep_for(50ms);
        if (::send(client.get(), block.data(), 1, MSG_NOSIGNAL) < 0 && errno == EAGAIN) {
            blocked = true;
            break;
        }
        ++written;
    }
    EXPECT_TRUE(blocked) << written << " bytes written without blocking";
    EXPECT_LE(proxy.stats(link.id).to_server.forwarded, written);
}

TEST(NetproxyApi, RejectsBadArgumentsAndCallsAfterStop) {
    ProxyServer proxy;
    EXPECT_THROW(proxy.add_link({"localhost", 0}, {"127.0.0.1", 1}), std::invalid_argument);
    EXPECT_THROW(proxy.add_link({"127.0.0.1", 0}, {"127.0.0.300", 1}), std::invalid_argument);
    const auto link = proxy.add_link({"127.0.0.1", 0}, {"127.0.0.1", 1});
    EXPECT_NE(link.listen.port, 0) << "an ephemeral port was bound";
    EXPECT_THROW(proxy.add_link(link.listen, {"127.0.0.1", 1}), std::system_error) << "the port is taken";
    EXPECT_THROW(proxy.set_fault(link.id + 1, faults::pass()), std::invalid_argument);
    EXPECT_THROW(proxy.set_fault(link.id, faults::delay(-1ms)), std::invalid_argument);
    EXPECT_THROW(proxy.add_rule(link.id, nullptr, faults::reset()), std::invalid_argument);
    proxy.remove_rule(12345);  // unknown rule: no-op
    proxy.stop();
    proxy.stop();
    EXPECT_THROW(proxy.links(), ProxyStopped);
    EXPECT_THROW(proxy.set_fault(link.id, faults::pass()), ProxyStopped);
}

TEST(NetproxyApi, CallsRacingStopEitherTakeEffectOrSayStopped) {
    ProxyServer proxy;
    const auto link = proxy.add_link({"127.0.0.1", 0}, {"127.0.0.1", 1});
    std::atomic<int> stopped_seen{0};
    std::atomic<int> other_errors{0};
    std::vector<std::thread> callers;
    for (int i = 0; i < 4; ++i) {
        callers.emplace_back([&] {
            for (int call = 0; call < 100'000; ++call) {
                try {
                    proxy.set_fault(link.id, call % 2 ? faults::drop() : faults::pass());
                    proxy.connections(link.id);
                } catch (const ProxyStopped&) {
                    ++stopped_seen;
                    return;
                } catch (...) {
                    ++other_errors;
                    return;
                }
            }
        });
    }
    std::this_thread::sleep_for(20ms);
    proxy.stop();
    for (auto& caller : callers) caller.join();
    EXPECT_EQ(stopped_seen.load(), 4) << "every caller still calling at stop() is told so";
    EXPECT_EQ(other_errors.load(), 0);
}

TEST(NetproxyLifecycle, StopLeavesNoDescriptorOrThread) {
    TestServer server(testing::serve_echo);
    const auto descriptors_before = testing::open_descriptor_count();
    const auto threads_before = testing::thread_count();
    {
        ProxyServer proxy;
        std::vector<LinkInfo> links;
        for (int i = 0; i < 3; ++i) links.push_back(proxy.add_link({"127.0.0.1", 0}, server.endpoint()));
        std::vector<UniqueFd> clients;
        for (int i = 0; i < 6; ++i) {
            clients.push_back(testing::connect_to(links[static_cast<std::size_t>(i) % links.size()].listen));
            echo_round_trip(clients.back().get(), "hello");
        }
        proxy.set_fault(links[0].id, faults::delay(1s));  // queued bytes at stop are dropped
        proxy.set_fault(links[1].id, faults::drop());     // a socket filter attached at stop
        testing::send_all(clients[0].get(), "queued");
        // 6 clients, 6 accepted + 6 upstream sockets, 6 server-side sockets, 3 listeners, epoll, eventfd.
        EXPECT_GE(testing::open_descriptor_count(), descriptors_before + 6 + 12 + 6 + 3 + 2);
        EXPECT_EQ(testing::thread_count(), threads_before + 1);
        proxy.stop();
        EXPECT_EQ(testing::thread_count(), threads_before) << "stop() joined the proxy's thread";
        // Each client sees its connection end: FIN, or RST where the proxy
        // closed a socket with bytes still unread (the kernel's rule).
        for (std::size_t i = 0; i < clients.size(); ++i) {
            const auto end = testing::receive(clients[i].get(), 1, 2s);
            EXPECT_TRUE(end.eof || end.error == ECONNRESET) << "client " << i << " error " << end.error;
        }
    }
    EXPECT_TRUE(testing::eventually([&] { return server.open_connections() == 0; }, 5s));
    EXPECT_EQ(testing::open_descriptor_count(), descriptors_before);
    EXPECT_EQ(testing::thread_count(), threads_before);
}

/// CPU time (user + system) this process has used.
std::chrono::microseconds process_cpu_time() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto micros = [](const timeval& time) {
        return std::chrono::seconds(time.tv_sec) + std::chrono::microseconds(time.tv_usec);
    };
    return micros(usage.ru_utime) + micros(usage.ru_stime);
}

TEST(NetproxyLifecycle, AnIdleProxySleepsWhateverItsFaults) {
    TestServer server(testing::serve_echo);
    ProxyServer proxy;
    std::vector<UniqueFd> clients;
    for (const auto& fault : {faults::drop(), faults::blackhole(), faults::delay(5ms, 5ms), faults::bandwidth(1000)}) {
        const auto link = proxy.add_link({"127.0.0.1", 0}, server.endpoint());
        clients.push_back(testing::connect_to(link.listen));
        echo_round_trip(clients.back().get(), "warm");
        proxy.set_fault(link.id, fault);
        testing::send_all(clients.back().get(), "waiting");  // stalled, discarded, delayed, paced
    }
    std::this_thread::sleep_for(200ms);  // the delayed and paced bytes are through
    const auto before = process_cpu_time();
    std::this_thread::sleep_for(500ms);
    // A busy loop would burn the whole 500 ms; the test server's 20 ms poll costs little.
    EXPECT_LT(process_cpu_time() - before, 50ms);
}

TEST(NetproxyLifecycle, DestructorStopsARunningProxy) {
    const auto descriptors_before = testing::open_descriptor_count();
    const auto threads_before = testing::thread_count();
    {
        ProxyServer proxy;
        proxy.add_link({"127.0.0.1", 0}, {"127.0.0.1", 1});
    }
    EXPECT_EQ(testing::open_descriptor_count(), descriptors_before);
    EXPECT_EQ(testing::thread_count(), threads_before);
}

}  // namespace
}  // namespace lockcheck::netproxy
