// Text from outside (a worker's reply, a server's error) made safe to store
// and show: well-formed UTF-8, and for messages, printable and short.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lockcheck {

/// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms,
/// surrogates or code points above U+10FFFF), as JSON requires.
bool is_valid_utf8(std::string_view text);

/// `text` with every byte that does not start a well-formed sequence
/// replaced by U+FFFD; well-formed text comes back unchanged.
std::string to_valid_utf8(std::string_view text);

/// A piece of `text` to quote in a message or log line: valid UTF-8 (as
/// to_valid_utf8), control characters replaced by U+FFFD so they cannot
/// drive a terminal, at most `max_bytes` of the original cut at a character
/// boundary, and "..." appended when cut.
std::string printable_excerpt(std::string_view text, std::size_t max_bytes = 80);

}  // namespace lockcheck
