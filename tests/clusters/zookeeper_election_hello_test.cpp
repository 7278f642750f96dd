// The rewrite of ZooKeeper's election handshake on a pair face
// (clusters/servers/zookeeper_election_hello.hpp): the announced election address
// becomes a wildcard, so the peer calls back through its own zoo.cfg; the
// rest of the stream, and any other first message, passes unchanged.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "clusters/servers/zookeeper_election_hello.hpp"

using namespace lockcheck;

namespace {

void put(std::vector<std::byte>& out, std::uint64_t value, int bytes) {
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) out.push_back(static_cast<std::byte>(value >> shift));
}

void put(std::vector<std::byte>& out, const std::string& text) {
    for (const char c : text) out.push_back(static_cast<std::byte>(c));
}

/// A first message as QuorumCnxManager.startConnection writes it.
std::vector<std::byte> hello(std::int64_t version, std::int64_t sid, const std::string& addresses) {
    std::vector<std::byte> out;
    put(out, static_cast<std::uint64_t>(version), 8);
    put(out, static_cast<std::uint64_t>(sid), 8);
    put(out, addresses.size(), 4);
    put(out, addresses);
    return out;
}

}  // namespace

TEST(ZooKeeperElectionHello, TheAnnouncedAddressBecomesAWildcardOnceTheMessageIsWhole) {
    const auto rewrite = zookeeper_election_hello_rewriter();
    auto stream = hello(-65536, 2, "127.77.3.2:3888");
    put(stream, "notification bytes");
    const std::size_t message = 20 + std::string("127.77.3.2:3888").size();
    for (std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{19}, message - 1})
        EXPECT_FALSE(rewrite(std::span(stream).first(cut)).has_value()) << "waits for more at " << cut;
    const auto done = rewrite(stream);
    ASSERT_TRUE(done.has_value());
    EXPECT_EQ(done->consumed, message) << "the bytes after the message are not its";
    EXPECT_EQ(done->replacement, hello(-65536, 2, "0.0.0.0:3888"));
}

TEST(ZooKeeperElectionHello, EveryAddressOfAMultiAddressHelloIsRewritten) {
    const auto done = zookeeper_election_hello_rewriter()(hello(-65535, 3, "127.77.3.3:3888|10.0.0.3:4888"));
    ASSERT_TRUE(done.has_value());
    EXPECT_EQ(done->replacement, hello(-65535, 3, "0.0.0.0:3888|0.0.0.0:4888"));
}

TEST(ZooKeeperElectionHello, AnyOtherFirstMessagePassesUnchanged) {
    const auto rewrite = zookeeper_election_hello_rewriter();
    for (const auto& other : {hello(3, 0, "x:1"),       // the old protocol: the first long is the sid
                              hello(-65534, 1, "a:1"),  // an unknown version
                              hello(-65536, 1, "")}) {  // no address
        const auto done = rewrite(other);
        ASSERT_TRUE(done.has_value());
        EXPECT_EQ(done->consumed, 0u);
        EXPECT_TRUE(done->replacement.empty());
    }
    auto huge = hello(-65536, 1, "");
    huge[16] = std::byte{0x7f};  // a length of about 2 GB
    EXPECT_EQ(rewrite(huge)->consumed, 0u);
}
