#include "clusters/servers/zookeeper_election_hello.hpp"

#include <cstdint>
#include <string>

namespace lockcheck {
namespace {

constexpr std::int64_t kProtocolV1 = -65536;    ///< QuorumCnxManager.PROTOCOL_VERSION_V1
constexpr std::int64_t kProtocolV2 = -65535;    ///< PROTOCOL_VERSION_V2 (multi-address)
constexpr std::size_t kFixedBytes = 8 + 8 + 4;  ///< version, sid, address length
constexpr std::int64_t kMaxAddressBytes = 1024;

std::uint64_t read_big_endian(std::span<const std::byte> bytes) {
    std::uint64_t value = 0;
    for (const std::byte b : bytes) value = (value << 8) | std::to_integer<std::uint64_t>(b);
    return value;
}

void append_big_endian(std::vector<std::byte>& out, std::uint64_t value, int bytes) {
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) out.push_back(static_cast<std::byte>(value >> shift));
}

/// "h1:p1|h2:p2" -> "0.0.0.0:p1|0.0.0.0:p2" (the port after each last ':').
std::string wildcard_hosts(const std::string& addresses) {
    std::string out;
    std::size_t start = 0;
    for (;;) {
        const auto end = addresses.find('|', start);
        const std::string one = addresses.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const auto colon = one.rfind(':');
        if (!out.empty()) out += '|';
        out += "0.0.0.0" + (colon == std::string::npos ? std::string(":0") : one.substr(colon));
        if (end == std::string::npos) return out;
        start = end + 1;
    }
}

std::optional<netproxy::HeadRewrite> rewrite_hello(std::span<const std::byte> head) {
    const netproxy::HeadRewrite unchanged{};
    if (head.size() < 8) return std::nullopt;
    const auto version = static_cast<std::int64_t>(read_big_endian(head.first(8)));
    if (version != kProtocolV1 && version != kProtocolV2) return unchanged;
    if (head.size() < kFixedBytes) return std::nullopt;
    const auto length = static_cast<std::int32_t>(read_big_endian(head.subspan(16, 4)));
    if (length <= 0 || length > kMaxAddressBytes) return unchanged;
    const std::size_t total = kFixedBytes + static_cast<std::size_t>(length);
    if (head.size() < total) return std::nullopt;
    std::string addresses;
    for (const std::byte b : head.subspan(kFixedBytes, static_cast<std::size_t>(length)))
        addresses += static_cast<char>(b);
    const std::string rewritten = wildcard_hosts(addresses);
    netproxy::HeadRewrite rewrite{.consumed = total, .replacement = {}};
    rewrite.replacement.assign(head.begin(), head.begin() + 16);  // version and sid
    append_big_endian(rewrite.replacement, rewritten.size(), 4);
    for (const char c : rewritten) rewrite.replacement.push_back(static_cast<std::byte>(c));
    return rewrite;
}

}  // namespace

netproxy::HeadRewriter zookeeper_election_hello_rewriter() { return rewrite_hello; }

}  // namespace lockcheck
