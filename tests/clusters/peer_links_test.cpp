// The servers' peer links (clusters/network/peer_links.hpp): echo servers on three
// loopback addresses stand in for three nodes, each with a face; peers
// connect to the faces from their own node's address, a client from
// 127.0.0.1. A cut must hold exactly the connections between the two sides,
// both ways, open and new, and the heal must let the held bytes through in
// order.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "clusters/network/peer_links.hpp"
#include "tests/netproxy/netproxy_test_support.hpp"

using namespace lockcheck;
namespace np = lockcheck::netproxy;
namespace nt = lockcheck::netproxy::testing;
using std::chrono::milliseconds;

namespace {

const std::string kA = "127.0.0.21", kB = "127.0.0.22", kC = "127.0.0.23";

/// Three nodes, each an echo server with one face.
struct ThreeNodes {
    nt::TestServer a{nt::serve_echo, kA};
    nt::TestServer b{nt::serve_echo, kB};
    nt::TestServer c{nt::serve_echo, kC};
    PeerLinks links;
    int face_a = links.add_face(kA, a.endpoint().port);
    int face_b = links.add_face(kB, b.endpoint().port);
    int face_c = links.add_face(kC, c.endpoint().port);
};

/// Whether `text` comes back within `wait`.
bool echoes(int fd, const std::string& text, milliseconds wait) {
    nt::send_all(fd, text);
    return nt::receive(fd, text.size(), wait).bytes == text;
}

}  // namespace

TEST(PeerLinks, AFaceForwardsToItsServerOnItsNodesAddress) {
    ThreeNodes nodes;
    EXPECT_NE(nodes.face_a, nodes.a.endpoint().port);
    auto fd = nt::connect_from(kB, {kA, static_cast<std::uint16_t>(nodes.face_a)});
    EXPECT_TRUE(echoes(fd.get(), "hello", milliseconds(2000)));
    EXPECT_EQ(nodes.links.face_stats(kA, nodes.face_a).accepted, 1u);
    EXPECT_THROW(nodes.links.face_stats(kA, nodes.a.endpoint().port), std::invalid_argument);
}

TEST(PeerLinks, IsolatingANodeHoldsExactlyItsLinksBothWaysUntilTheHeal) {
    ThreeNodes nodes;
    const auto face = [](const std::string& address, int port) {
        return np::Endpoint{address, static_cast<std::uint16_t>(port)};
    };
    auto a_to_b = nt::connect_from(kA, face(kB, nodes.face_b));
    auto b_to_a = nt::connect_from(kB, face(kA, nodes.face_a));
    auto b_to_c = nt::connect_from(kB, face(kC, nodes.face_c));
    auto client_to_a = nt::connect_from("127.0.0.1", face(kA, nodes.face_a));
    for (int fd : {a_to_b.get(), b_to_a.get(), b_to_c.get(), client_to_a.get()})
        ASSERT_TRUE(echoes(fd, "up", milliseconds(2000)));

    EXPECT_EQ(nodes.links.isolate({kA}, {kB, kC}), 2u) << "a->b and b->a were open";
    EXPECT_EQ(nodes.links.totals().cuts, 1u);
    EXPECT_GT(nodes.links.totals().rules_in_force, 0u);
    EXPECT_FALSE(echoes(a_to_b.get(), "held1", milliseconds(300))) << "a's link to b is cut";
    EXPECT_FALSE(echoes(b_to_a.get(), "held2", milliseconds(300))) << "b's link to a is cut";
    auto c_to_a = nt::connect_from(kC, face(kA, nodes.face_a));  // a new connection across the cut
    EXPECT_FALSE(echoes(c_to_a.get(), "held3", milliseconds(300))) << "new connections across the cut are held";
    EXPECT_TRUE(echoes(b_to_c.get(), "fine", milliseconds(2000))) << "b and c are on the same side";
    EXPECT_TRUE(echoes(client_to_a.get(), "fine", milliseconds(2000))) << "clients still reach the cut node";

    nodes.links.heal();
    EXPECT_EQ(nodes.links.totals().rules_in_force, 0u);
    EXPECT_EQ(nt::receive(a_to_b.get(), 5, milliseconds(2000)).bytes, "held1") << "held bytes flow, in order";
    EXPECT_EQ(nt::receive(b_to_a.get(), 5, milliseconds(2000)).bytes, "held2");
    EXPECT_EQ(nt::receive(c_to_a.get(), 5, milliseconds(2000)).bytes, "held3");
    EXPECT_TRUE(echoes(a_to_b.get(), "after", milliseconds(2000)));
    nodes.links.heal();  // idempotent
}

TEST(PeerLinks, AMinorityOfTwoKeepsItsOwnLink) {
    ThreeNodes nodes;
    const auto face = [](const std::string& address, int port) {
        return np::Endpoint{address, static_cast<std::uint16_t>(port)};
    };
    auto a_to_b = nt::connect_from(kA, face(kB, nodes.face_b));
    auto c_to_a = nt::connect_from(kC, face(kA, nodes.face_a));
    auto b_to_c = nt::connect_from(kB, face(kC, nodes.face_c));
    nodes.links.isolate({kA, kB}, {kC});
    EXPECT_TRUE(echoes(a_to_b.get(), "same side", milliseconds(2000)));
    EXPECT_FALSE(echoes(c_to_a.get(), "cut", milliseconds(300)));
    EXPECT_FALSE(echoes(b_to_c.get(), "cut", milliseconds(300)));
    nodes.links.heal();
    EXPECT_EQ(nt::receive(b_to_c.get(), 3, milliseconds(2000)).bytes, "cut");
}

// Pair faces (ZooKeeper's peers all connect from 127.0.0.1): each carries the
// traffic of one ordered pair of nodes, whatever address its connections
// come from, and a cut holds the ones across it whole, new connects included.
TEST(PeerLinks, ACutHoldsWholeThePairFacesAcrossItAndNoOther) {
    nt::TestServer a{nt::serve_echo, kA}, b{nt::serve_echo, kB};
    PeerLinks links;
    const auto pair_face = [&](const std::string& from, const nt::TestServer& to) {
        const int port = links.add_pair_face(from, to.endpoint().address, to.endpoint().port);
        return np::Endpoint{to.endpoint().address, static_cast<std::uint16_t>(port)};
    };
    const auto a_to_b = pair_face(kA, b), c_to_b = pair_face(kC, b), b_to_a = pair_face(kB, a);
    EXPECT_EQ(links.totals().faces, 3u);
    auto over_a_to_b = nt::connect_to(a_to_b);  // from 127.0.0.1, as ZooKeeper's connections come
    auto over_c_to_b = nt::connect_to(c_to_b);
    auto over_b_to_a = nt::connect_to(b_to_a);
    for (int fd : {over_a_to_b.get(), over_c_to_b.get(), over_b_to_a.get()})
        ASSERT_TRUE(echoes(fd, "up", milliseconds(2000)));

    EXPECT_EQ(links.isolate({kA}, {kB, kC}), 2u) << "the pair faces a->b and b->a each had a connection";
    EXPECT_EQ(links.totals().rules_in_force, 2u);
    EXPECT_FALSE(echoes(over_a_to_b.get(), "held1", milliseconds(300)));
    EXPECT_FALSE(echoes(over_b_to_a.get(), "held2", milliseconds(300)));
    EXPECT_TRUE(echoes(over_c_to_b.get(), "fine", milliseconds(2000))) << "c and b are on the same side";
    auto new_a_to_b = nt::start_connect_to(a_to_b);
    EXPECT_FALSE(nt::connect_completes(new_a_to_b.get(), milliseconds(300))) << "new connects hang, as behind DROP";

    links.heal();
    EXPECT_EQ(links.totals().rules_in_force, 0u);
    EXPECT_EQ(nt::receive(over_a_to_b.get(), 5, milliseconds(2000)).bytes, "held1") << "held bytes flow, in order";
    EXPECT_EQ(nt::receive(over_b_to_a.get(), 5, milliseconds(2000)).bytes, "held2");
    EXPECT_TRUE(nt::connect_completes(new_a_to_b.get(), milliseconds(5000))) << "the SYN is retried after the heal";
    EXPECT_EQ(links.face_stats(kB, a_to_b.port).accepted, 1u + 1u);
}
