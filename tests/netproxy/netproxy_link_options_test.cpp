// A link's options (netproxy/link.hpp, LinkOptions), through real links:
// the one-time rewrite of the client→server stream head
// (netproxy/head_rewriter.hpp) is done once, however the client splits it,
// and every other byte passes unchanged and in order; a refused upstream is
// retried within the patience, without losing the client's bytes, and the
// client is reset past it.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <string>
#include <thread>

#include "netproxy/proxy_server.hpp"
#include "netproxy/socket_ops.hpp"
#include "tests/netproxy/netproxy_test_support.hpp"

using namespace lockcheck::netproxy;
namespace nt = lockcheck::netproxy::testing;
using std::chrono::milliseconds;

namespace {

std::vector<std::byte> bytes_of(const std::string& text) {
    std::vector<std::byte> out;
    for (const char c : text) out.push_back(static_cast<std::byte>(c));
    return out;
}

/// Waits for "HELLO:" and replaces it by "hi:".
std::optional<HeadRewrite> hello_to_hi(std::span<const std::byte> head) {
    const std::string expected = "HELLO:";
    if (head.size() < expected.size()) return std::nullopt;
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (head[i] != static_cast<std::byte>(expected[i])) return HeadRewrite{};
    return HeadRewrite{expected.size(), bytes_of("hi:")};
}

}  // namespace

TEST(NetproxyHeadRewrite, TheHeadIsRewrittenOnceHoweverTheClientSplitsIt) {
    nt::TestServer echo{nt::serve_echo};
    ProxyServer proxy;
    const auto link = proxy.add_link({"127.0.0.1", 0}, echo.endpoint(), {.to_server_head = hello_to_hi});
    auto fd = nt::connect_to(link.listen);
    nt::send_all(fd.get(), "HEL");
    EXPECT_EQ(nt::receive(fd.get(), 1, milliseconds(200)).bytes, "") << "held until the rewriter decides";
    nt::send_all(fd.get(), "LO:rest");
    EXPECT_EQ(nt::receive(fd.get(), 7, milliseconds(2000)).bytes, "hi:rest");
    nt::send_all(fd.get(), "HELLO:again");
    EXPECT_EQ(nt::receive(fd.get(), 11, milliseconds(2000)).bytes, "HELLO:again") << "only the head is rewritten";
    auto other = nt::connect_to(link.listen);
    nt::send_all(other.get(), "HELLO:x");
    EXPECT_EQ(nt::receive(other.get(), 4, milliseconds(2000)).bytes, "hi:x") << "every connection's head";
}

TEST(NetproxyHeadRewrite, AHeadTheRewriterDeclinesOrNeverDecidesOnPassesUnchanged) {
    nt::TestServer echo{nt::serve_echo};
    ProxyServer proxy;
    const auto declining = proxy.add_link({"127.0.0.1", 0}, echo.endpoint(), {.to_server_head = hello_to_hi});
    auto fd = nt::connect_to(declining.listen);
    nt::send_all(fd.get(), "GOODBYE:");
    EXPECT_EQ(nt::receive(fd.get(), 8, milliseconds(2000)).bytes, "GOODBYE:");

    const auto undecided =
        proxy.add_link({"127.0.0.1", 0}, echo.endpoint(),
                       {.to_server_head = [](std::span<const std::byte>) { return std::optional<HeadRewrite>{}; }});
    auto long_head = nt::connect_to(undecided.listen);
    const std::string big(kMaxHeadBytes + 10, 'z');
    nt::send_all(long_head.get(), big);
    EXPECT_EQ(nt::receive(long_head.get(), big.size(), milliseconds(2000)).bytes, big) << "released at the limit";

    auto short_head = nt::connect_to(undecided.listen);
    nt::send_all(short_head.get(), "tail");
    ::shutdown(short_head.get(), SHUT_WR);
    EXPECT_EQ(nt::receive(short_head.get(), 4, milliseconds(2000)).bytes, "tail") << "released at the stream's end";
}

namespace {
/// A loopback port nothing listens on (it was free a moment ago).
Endpoint free_port() {
    const auto probe = listen_on({"127.0.0.1", 0});
    return local_endpoint(probe.get());
}
}  // namespace

TEST(NetproxyUpstreamPatience, ARefusedUpstreamIsRetriedUntilItListensAndGetsTheClientsBytes) {
    const Endpoint upstream = free_port();
    ProxyServer proxy;
    const auto link = proxy.add_link({"127.0.0.1", 0}, upstream, {.upstream_refused_patience = milliseconds(3000)});
    auto client = nt::connect_to(link.listen);
    nt::send_all(client.get(), "early");
    std::this_thread::sleep_for(milliseconds(300));  // refused a few times meanwhile
    EXPECT_EQ(nt::receive(client.get(), 1, milliseconds(1)).error, 0) << "the client is not reset meanwhile";
    auto listener = listen_on(upstream);
    pollfd ready{listener.get(), POLLIN, 0};
    ASSERT_EQ(::poll(&ready, 1, 2000), 1) << "the link connects again within its patience";
    UniqueFd server(::accept4(listener.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
    EXPECT_EQ(nt::receive(server.get(), 5, milliseconds(2000)).bytes, "early");
    nt::send_all(server.get(), "late");
    EXPECT_EQ(nt::receive(client.get(), 4, milliseconds(2000)).bytes, "late");
}

TEST(NetproxyUpstreamPatience, PastThePatienceOrWithoutItTheClientIsReset) {
    const Endpoint upstream = free_port();
    ProxyServer proxy;
    for (const auto patience : {milliseconds(0), milliseconds(200)}) {
        const auto link = proxy.add_link({"127.0.0.1", 0}, upstream, {.upstream_refused_patience = patience});
        auto client = nt::connect_to(link.listen);
        const auto received = nt::receive(client.get(), 1, milliseconds(2000));
        EXPECT_TRUE(received.eof || received.error == ECONNRESET) << "patience " << patience.count() << " ms";
    }
}
