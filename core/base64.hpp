// Standard base64 (RFC 4648, "+/" alphabet, "=" padding): etcd's HTTP/JSON
// gateway carries keys and values as base64 (proto3 JSON for `bytes`).
// No Debian library we already depend on exposes one, so it is ours.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lockcheck {

std::string base64_encode(std::string_view bytes);

/// The bytes `text` encodes; nullopt when it is not padded standard base64
/// (a length that is not a multiple of 4, a foreign character, misplaced "=").
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace lockcheck
