// A one-time rewrite of the start of a link's client→server stream: for a
// protocol whose first message names the client's own address, which the
// server would otherwise use to reach the client directly, past the proxy
// (ZooKeeper's election handshake: clusters/servers/zookeeper_election_hello.hpp).
//
// The forwarder keeps the bytes a client sends first (the head) and asks the
// rewriter after each read, until it decides: nullopt while it needs more,
// otherwise the first `consumed` bytes of the head are replaced by
// `replacement` and every byte after them, then and later, passes unchanged.
// A head that reaches kMaxHeadBytes without a decision, or whose stream ends
// first, passes unchanged; a discard fault throws the head away with the
// queue and ends the rewriting. Bytes are never reordered: the head goes out, as
// one chunk, before anything read after it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace lockcheck::netproxy {

struct HeadRewrite {
    std::size_t consumed = 0;  ///< bytes of the head replaced (at most its size)
    std::vector<std::byte> replacement;
};

/// Called on the proxy's thread with every byte of the head read so far; it
/// must be quick and must not throw. Empty: no rewrite.
using HeadRewriter = std::function<std::optional<HeadRewrite>(std::span<const std::byte> head)>;

/// The longest head a rewriter is shown.
inline constexpr std::size_t kMaxHeadBytes = 4096;

}  // namespace lockcheck::netproxy
