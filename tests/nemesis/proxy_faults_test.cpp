// The run's fault proxy (nemesis/proxied_network.hpp) and the faults that act
// through it (delay, blackhole, reset, slow-reply, client-partition), against loopback echo
// servers standing in for the nodes and a fake worker pool; and how a spec
// asks for them (options, the proxy switch, refusals).
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <random>

#include "spec/run_plan.hpp"
#include "spec/spec.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/fault_registry.hpp"
#include "nemesis/proxied_network.hpp"
#include "nemesis/proxy_node_fault.hpp"
#include "nemesis/proxy_worker_fault.hpp"
#include "nemesis/slow_reply.hpp"
#include "tests/netproxy/netproxy_test_support.hpp"
#include "tests/support/spec_test_support.hpp"

using namespace lockcheck;
namespace np = lockcheck::netproxy;
namespace nt = lockcheck::netproxy::testing;
using lockcheck::testing::spec_error_of;
using std::chrono::milliseconds;

namespace {

class FakeWorkers : public WorkerControl {
public:
    std::vector<int> holding;
    std::vector<int> acquiring;  ///< workers with an acquire in flight
    std::vector<int> live;
    std::vector<int> holders() const override { return holding; }
    std::vector<int> acquiring_for(milliseconds) const override { return acquiring; }
    std::vector<int> live_workers() const override { return live; }
    bool pause_worker(int) override { return true; }
    void resume_worker(int) override {}
};

/// Two echo servers standing in for two nodes, and the proxy in front of them.
struct TwoNodes {
    nt::TestServer first{nt::serve_echo};
    nt::TestServer second{nt::serve_echo};
    ProxiedNetwork proxy{{np::to_string(first.endpoint()), np::to_string(second.endpoint())}, 7};
};

/// A connection of worker `process` to node `node` through the proxy.
np::UniqueFd connect_as(ProxiedNetwork& proxy, int process, int node) {
    return nt::connect_to(np::parse_endpoint(proxy.endpoints_for(process).at(node)));
}

/// Sends `text` and waits up to `wait` for its echo; how long it took, or nullopt.
std::optional<milliseconds> echo_time(int fd, const std::string& text, milliseconds wait) {
    const auto start = std::chrono::steady_clock::now();
    nt::send_all(fd, text);
    const auto got = nt::receive(fd, text.size(), wait);
    if (got.bytes != text) return std::nullopt;
    return std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start);
}

FaultEvent event_picking(std::uint64_t pick) {
    FaultEvent e;
    e.pick = pick;
    return e;
}

}  // namespace

TEST(ProxiedNetwork, EachWorkerGetsLinksOfItsOwnToEveryNode) {
    TwoNodes nodes;
    const auto worker0 = nodes.proxy.endpoints_for(0);
    const auto worker1 = nodes.proxy.endpoints_for(1);
    ASSERT_EQ(worker0.size(), 2u);
    ASSERT_EQ(worker1.size(), 2u);
    EXPECT_EQ(nodes.proxy.endpoints_for(0), worker0) << "asking again gives the same links";
    for (const auto& endpoint : worker0) {
        EXPECT_EQ(np::parse_endpoint(endpoint).address, "127.0.0.1");
        EXPECT_EQ(std::find(worker1.begin(), worker1.end(), endpoint), worker1.end()) << endpoint;
    }
    EXPECT_NE(worker0[0], worker0[1]);
    auto fd = connect_as(nodes.proxy, 1, 1);
    EXPECT_TRUE(echo_time(fd.get(), "ping", milliseconds(2000))) << "bytes pass unchanged with no fault";
    // The test server counts a connection's bytes after it has echoed them: wait for the count.
    EXPECT_TRUE(nt::eventually([&] { return nodes.second.bytes_received() == 4u; }, milliseconds(1000)))
        << nodes.second.bytes_received() << " bytes reached the second node";
    EXPECT_EQ(nodes.first.bytes_received(), 0u);
}

TEST(ProxiedNetwork, AReplacedWorkersLinksAreClosedAndStillCounted) {
    TwoNodes nodes;
    const auto replaced = nodes.proxy.endpoints_for(0);
    const auto kept = nodes.proxy.endpoints_for(1);
    auto fd = connect_as(nodes.proxy, 0, 0);
    ASSERT_TRUE(echo_time(fd.get(), "ping", milliseconds(2000)));
    nodes.proxy.drop_worker(0);
    for (const auto& endpoint : replaced) {
        const auto refused = nt::start_connect_to(np::parse_endpoint(endpoint));
        EXPECT_FALSE(nt::connect_completes(refused.get(), milliseconds(500))) << endpoint << " still listens";
    }
    EXPECT_TRUE(nt::eventually([&] { return nt::receive(fd.get(), 1, milliseconds(50)).eof; }, milliseconds(2000)))
        << "the replaced worker's open connection was not closed";
    auto kept_fd = connect_as(nodes.proxy, 1, 0);
    EXPECT_TRUE(echo_time(kept_fd.get(), "ping", milliseconds(2000))) << "another worker's links stay";
    EXPECT_NE(nodes.proxy.summary().find("proxy: 4 links, 2 connections"), std::string::npos) << nodes.proxy.summary();
    EXPECT_EQ(nodes.proxy.endpoints_for(1), kept);
}

TEST(ProxiedNetwork, RefusesAnEndpointItCannotStandInFrontOf) {
    try {
        ProxiedNetwork proxy({"sentinel:127.0.0.1:26379"}, 1);
        FAIL() << "a Sentinel endpoint was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("'sentinel:127.0.0.1:26379'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(np::parse_endpoint("127.0.0.1:0"), std::invalid_argument);
    EXPECT_THROW(np::parse_endpoint("127.0.0.1:70000"), std::invalid_argument);
    EXPECT_THROW(np::parse_endpoint("localhost:6379"), std::invalid_argument);
    EXPECT_EQ(np::parse_endpoint("10.77.3.2:6379"), (np::Endpoint{"10.77.3.2", 6379}));
}

TEST(ProxyNodeFault, BlackholeSilencesOneNodeForEveryWorkerUntilTheHeal) {
    TwoNodes nodes;
    ProxyNodeFault blackhole("blackhole", &nodes.proxy, np::faults::blackhole());
    auto to_first = connect_as(nodes.proxy, 0, 0);
    auto to_second = connect_as(nodes.proxy, 0, 1);
    const auto targets = blackhole.start(event_picking(2), {});  // 2 % 2 nodes: the first
    ASSERT_TRUE(targets);
    EXPECT_EQ(*targets, std::vector<std::string>{"proxy to " + np::to_string(nodes.first.endpoint())});
    auto later_worker = connect_as(nodes.proxy, 5, 0);  // a replaced worker's new links get the fault too
    EXPECT_FALSE(echo_time(to_first.get(), "lost", milliseconds(300)));
    EXPECT_FALSE(echo_time(later_worker.get(), "lost", milliseconds(300)));
    EXPECT_TRUE(echo_time(to_second.get(), "fine", milliseconds(2000))) << "the other node is untouched";
    EXPECT_EQ(nodes.first.bytes_received(), 0u) << "the server never sees the requests";
    blackhole.heal();
    EXPECT_TRUE(echo_time(to_first.get(), "back", milliseconds(2000)));
    blackhole.heal();  // idempotent
}

TEST(ProxyNodeFault, ResetClosesEveryConnectionToTheNode) {
    TwoNodes nodes;
    ProxyNodeFault reset("reset", &nodes.proxy, np::faults::reset());
    auto to_second = connect_as(nodes.proxy, 3, 1);
    ASSERT_TRUE(echo_time(to_second.get(), "hi", milliseconds(2000)));
    ASSERT_TRUE(reset.start(event_picking(1), {}));
    const auto got = nt::receive(to_second.get(), 1, milliseconds(2000));
    EXPECT_EQ(got.error, ECONNRESET);
    reset.heal();
    auto again = connect_as(nodes.proxy, 3, 1);
    EXPECT_TRUE(echo_time(again.get(), "after", milliseconds(2000))) << "new connections work after the heal";
}

TEST(ProxyNodeFault, DelayHoldsBothDirections) {
    TwoNodes nodes;
    ProxyNodeFault delay("delay", &nodes.proxy, np::faults::delay(milliseconds(150)));
    auto fd = connect_as(nodes.proxy, 0, 0);
    ASSERT_TRUE(delay.start(event_picking(0), {}));
    const auto took = echo_time(fd.get(), "slow", milliseconds(5000));
    ASSERT_TRUE(took);
    EXPECT_GE(took->count(), 300) << "150 ms to the server and 150 ms back";
    delay.heal();
}

TEST(ProxyNodeFault, EveryNodeStrikesEachNodeAndTheHealPutsThemAllBack) {
    TwoNodes nodes;
    ProxyNodeFault blackhole("blackhole", &nodes.proxy, np::faults::blackhole(), true);
    auto to_first = connect_as(nodes.proxy, 0, 0);
    auto to_second = connect_as(nodes.proxy, 0, 1);
    const auto targets = blackhole.start(event_picking(1), {});
    ASSERT_TRUE(targets);
    EXPECT_EQ(*targets, (std::vector<std::string>{"proxy to " + np::to_string(nodes.first.endpoint()),
                                                  "proxy to " + np::to_string(nodes.second.endpoint())}));
    EXPECT_FALSE(echo_time(to_first.get(), "lost", milliseconds(300)));
    EXPECT_FALSE(echo_time(to_second.get(), "lost", milliseconds(300))) << "not only the event's pick";
    blackhole.heal();
    EXPECT_TRUE(echo_time(to_first.get(), "back", milliseconds(2000)));
    EXPECT_TRUE(echo_time(to_second.get(), "back", milliseconds(2000))) << "every struck node is healed";
}

TEST(ProxyFaults, DelayNodesIsOneOrEvery) {
    const auto options = fault_options_for(*find_fault("delay"), spec_from_json(nlohmann::json::object(), "t").fault_options,
                                           OptionContext{1000});
    EXPECT_EQ(options.at("delay_nodes"), "one") << "by default a delay strikes the event's pick";
    EXPECT_NE(spec_error_of({{"delay_nodes", "all"}}).find("field 'delay_nodes'"), std::string::npos);
    EXPECT_EQ(spec_error_of({{"nemesis", {"delay"}}, {"delay_nodes", "every"}}), "");
}

TEST(SlowReply, DelaysOnlyTheHoldersReplies) {
    TwoNodes nodes;
    FakeWorkers workers;
    workers.holding = {4, 2};
    SlowReply slow(workers, &nodes.proxy, milliseconds(2000));
    auto holder = connect_as(nodes.proxy, 4, 0);
    auto other = connect_as(nodes.proxy, 1, 0);
    const auto targets = slow.start(event_picking(1), {});  // sorted holders {2, 4}: pick 1 is worker 4
    ASSERT_TRUE(targets);
    EXPECT_EQ(*targets, std::vector<std::string>{"worker 4"});
    const auto start = std::chrono::steady_clock::now();
    nt::send_all(holder.get(), "grant?");
    const auto other_took = echo_time(other.get(), "quick", milliseconds(1500));
    EXPECT_TRUE(other_took) << "another worker's replies are not delayed";
    EXPECT_TRUE(nt::eventually([&] { return nodes.first.bytes_received() >= 6 + 5; }, milliseconds(1000)))
        << "the holder's request reaches the server at once";
    EXPECT_EQ(nt::receive(holder.get(), 6, milliseconds(500)).bytes, "") << "its reply is held back";
    slow.heal();  // bytes read before the heal keep their delay
    EXPECT_EQ(nt::receive(holder.get(), 6, milliseconds(5000)).bytes, "grant?");
    EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(2000));
    EXPECT_TRUE(echo_time(holder.get(), "healed", milliseconds(1000)));
}

TEST(SlowReply, WithoutAHolderItStrikesNothing) {
    TwoNodes nodes;
    FakeWorkers workers;
    SlowReply slow(workers, &nodes.proxy, milliseconds(2000));
    std::stop_source stop;
    stop.request_stop();
    EXPECT_FALSE(slow.start(event_picking(0), stop.get_token()));
    slow.heal();
}

TEST(SlowReply, AnIdleTargetIsAWorkerNeitherHoldingNorAcquiring) {
    TwoNodes nodes;
    FakeWorkers workers;
    workers.live = {0, 1, 2, 3};
    workers.holding = {0};
    workers.acquiring = {2};
    SlowReply slow(workers, &nodes.proxy, milliseconds(2000), true);
    auto idle = connect_as(nodes.proxy, 3, 0);
    auto holder = connect_as(nodes.proxy, 0, 0);
    const auto targets = slow.start(event_picking(1), {});  // idle {1, 3}: pick 1 is worker 3
    ASSERT_TRUE(targets);
    EXPECT_EQ(*targets, std::vector<std::string>{"worker 3"});
    EXPECT_TRUE(echo_time(holder.get(), "quick", milliseconds(1500))) << "the holder's replies are not delayed";
    nt::send_all(idle.get(), "grant?");
    EXPECT_EQ(nt::receive(idle.get(), 6, milliseconds(500)).bytes, "") << "the idle worker's reply is held back";
    slow.heal();
    // Every worker busy: nothing to strike.
    workers.holding = {0, 1, 3};
    std::stop_source stop;
    stop.request_stop();
    EXPECT_FALSE(SlowReply(workers, &nodes.proxy, milliseconds(2000), true).start(event_picking(0), stop.get_token()));
}

/// No servers of its own: the fault under test reaches them through the proxy only.
class ProxiedOnlyTopology : public Topology {
public:
    void start() override {}
    void stop() override {}
    std::vector<Node*> nodes() override { return {}; }
    std::vector<std::string> client_endpoints() const override { return {}; }
};

/// The fault client-partition of a spec setting `options`, on `workers` and `nodes`.
std::unique_ptr<Fault> client_partition(const nlohmann::json& options, WorkerControl& workers, TwoNodes& nodes) {
    static ProxiedOnlyTopology topology;
    const auto& descriptor = *find_fault("client-partition");
    return descriptor.make({.workers = workers, .topology = topology, .proxy = &nodes.proxy},
                           fault_options_for(descriptor, options, OptionContext{1000}));
}

TEST(ClientPartition, BlackholesEveryLinkOfTheHolderOnlyUntilTheHeal) {
    TwoNodes nodes;
    FakeWorkers workers;
    workers.holding = {3};
    auto holder_first = connect_as(nodes.proxy, 3, 0);
    auto holder_second = connect_as(nodes.proxy, 3, 1);
    auto other = connect_as(nodes.proxy, 1, 0);
    auto fault = client_partition(nlohmann::json::object(), workers, nodes);  // default: blackhole
    const auto targets = fault->start(event_picking(5), {});
    ASSERT_TRUE(targets);
    EXPECT_EQ(*targets, std::vector<std::string>{"worker 3"});
    EXPECT_FALSE(echo_time(holder_first.get(), "lost", milliseconds(300)));
    EXPECT_FALSE(echo_time(holder_second.get(), "lost", milliseconds(300))) << "cut from every node";
    EXPECT_TRUE(echo_time(other.get(), "fine", milliseconds(2000))) << "another worker still reaches the node";
    fault->heal();
    EXPECT_TRUE(echo_time(holder_second.get(), "back", milliseconds(2000))) << "the links are restored";
    fault->heal();  // idempotent
}

TEST(ClientPartition, ResetModeResetsTheHoldersConnections) {
    TwoNodes nodes;
    FakeWorkers workers;
    workers.holding = {2};
    auto holder = connect_as(nodes.proxy, 2, 1);
    ASSERT_TRUE(echo_time(holder.get(), "hi", milliseconds(2000)));
    auto fault = client_partition({{"client_partition_mode", "reset"}}, workers, nodes);
    ASSERT_TRUE(fault->start(event_picking(0), {}));
    EXPECT_EQ(nt::receive(holder.get(), 1, milliseconds(2000)).error, ECONNRESET);
    fault->heal();
    auto again = connect_as(nodes.proxy, 2, 1);
    EXPECT_TRUE(echo_time(again.get(), "after", milliseconds(2000)));
}

TEST(ClientPartition, RefusesAModeItDoesNotKnow) {
    const auto error = spec_error_of({{"client_partition_mode", "drop"}});
    EXPECT_NE(error.find("field 'client_partition_mode'"), std::string::npos) << error;
    EXPECT_NE(error.find("blackhole or reset"), std::string::npos) << error;
    EXPECT_NE(spec_error_of({{"topology", "redis-sentinel"}, {"nemesis", {"client-partition"}}}).find("Sentinel"),
              std::string::npos);
}

TEST(ProxyFaults, UnavailableWithoutTheProxy) {
    FakeWorkers workers;
    EXPECT_EQ(ProxyNodeFault("reset", nullptr, np::faults::reset()).unavailable_reason(),
              std::optional<std::string>("the run has no fault proxy"));
    EXPECT_TRUE(SlowReply(workers, nullptr, milliseconds(1)).unavailable_reason());
    EXPECT_EQ(ProxyWorkerFault("client-partition", workers, nullptr, np::faults::blackhole()).unavailable_reason(),
              std::optional<std::string>("the run has no fault proxy"));
}

TEST(ProxyFaults, OnlyAProxyFaultPutsTheProxyInFrontOfTheNodes) {
    const auto needs_proxy = [](const nlohmann::json& nemesis) {
        return plan_run(spec_from_json({{"nemesis", nemesis}}, "t")).needs_proxy;
    };
    EXPECT_FALSE(needs_proxy({"pause-holder"}));
    EXPECT_FALSE(needs_proxy(nlohmann::json::array()));
    for (const char* kind : {"delay", "slow-reply", "blackhole", "reset", "bandwidth", "client-partition"}) {
        EXPECT_TRUE(needs_proxy({"pause-holder", kind})) << kind;
        ASSERT_NE(find_fault(kind), nullptr) << kind << " is listed";
        EXPECT_FALSE(find_fault(kind)->needs_namespaces) << kind << " needs no root";
    }
}

TEST(ProxyFaults, LatenciesAreMillisecondsOrMultiplesOfTheTtl) {
    const Spec spec = spec_from_json({{"ttl_ms", 2000}, {"slow_reply_ms", "2xttl"}, {"delay_jitter_ms", 30}}, "t");
    const OptionContext context{spec.ttl_ms};
    EXPECT_EQ(fault_options_for(*find_fault("slow-reply"), spec.fault_options, context).at("slow_reply_ms"), 4000);
    const auto delay = fault_options_for(*find_fault("delay"), spec.fault_options, context);
    EXPECT_EQ(delay.at("delay_ms"), 1000) << "default 0.5xttl";
    EXPECT_EQ(delay.at("delay_jitter_ms"), 30);
    EXPECT_EQ(fault_options_for(*find_fault("slow-reply"), nlohmann::json::object(), context).at("slow_reply_ms"), 3000)
        << "default 1.5xttl: after the lease";
    EXPECT_NE(spec_error_of({{"delay_ms", -1}}).find("field 'delay_ms'"), std::string::npos);
    EXPECT_NE(spec_error_of({{"slow_reply_ms", 50'000'000}}).find("field 'slow_reply_ms'"), std::string::npos)
        << "above 12 hours";
    EXPECT_EQ(spec_error_of({{"ttl_ms", 3'600'000}, {"op_timeout_ms", 3'600'000}, {"fault_duration_ms", {0, 1000}}}),
              "")
        << "the defaults (1.5xttl) fit the longest TTL";
}

TEST(ProxyNodeFault, BandwidthPacesTheNodesBytesAndKeepsThemInOrder) {
    TwoNodes nodes;
    const OptionContext context{1000};
    const auto options = fault_options_for(*find_fault("bandwidth"), nlohmann::json::object(), context);
    EXPECT_EQ(options.at("bandwidth_bytes_per_s"), 2000) << "the default";
    constexpr std::uint64_t rate = 20'000;
    constexpr std::size_t size = 16 * 1024, burst = 1500;  // the bucket's first burst passes at once
    ProxyNodeFault bandwidth("bandwidth", &nodes.proxy, np::faults::bandwidth(rate));
    auto limited = connect_as(nodes.proxy, 0, 0);
    auto other = connect_as(nodes.proxy, 0, 1);
    const auto targets = bandwidth.start(event_picking(0), {});
    ASSERT_TRUE(targets);
    EXPECT_EQ(*targets, std::vector<std::string>{"proxy to " + np::to_string(nodes.first.endpoint())});
    std::string bytes(size, '\0');
    std::mt19937_64 random(13);
    for (auto& b : bytes) b = static_cast<char>(random());
    const auto start = std::chrono::steady_clock::now();
    nt::send_all(limited.get(), bytes);
    EXPECT_EQ(nt::receive(limited.get(), size, milliseconds(30'000)).bytes, bytes) << "every byte, in order";
    // A lower bound only (a slow host makes it longer, never shorter): the
    // requests alone need (size - burst) / rate on their way to the server.
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, milliseconds((size - burst) * 1000 / rate)) << "faster than the rate";
    EXPECT_EQ(nt::receive(other.get(), 1, milliseconds(0)).bytes, "");
    EXPECT_TRUE(echo_time(other.get(), std::string(size, 'x'), milliseconds(10'000))) << "the other node is not paced";
    bandwidth.heal();
    EXPECT_NE(spec_error_of({{"bandwidth_bytes_per_s", 0}}).find("field 'bandwidth_bytes_per_s'"), std::string::npos);
}

TEST(ProxyFaults, RedisSentinelIsRefusedItsClientsBypassTheProxy) {
    const std::string error =
        spec_error_of({{"recipe", "redis-set-nx-px"}, {"topology", "redis-sentinel"}, {"nemesis", {"slow-reply"}}});
    EXPECT_NE(error.find("field 'nemesis'"), std::string::npos) << error;
    EXPECT_NE(error.find("Sentinel"), std::string::npos) << error;
    EXPECT_EQ(spec_error_of({{"recipe", "redis-set-nx-px"}, {"topology", "redis-single"}, {"nemesis", {"reset"}}}), "");
}
