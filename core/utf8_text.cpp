#include "core/utf8_text.hpp"

namespace lockcheck {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/// Length of the well-formed sequence starting at text[at] (Unicode table
/// 3-7), or 0 when the bytes there are ill-formed.
std::size_t sequence_length(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return 1;
    std::size_t length = 0;
    unsigned char second_min = 0x80, second_max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) second_min = 0xA0;  // no overlong forms
        if (lead == 0xED) second_max = 0x9F;  // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) second_min = 0x90;  // no overlong forms
        if (lead == 0xF4) second_max = 0x8F;  // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (text.size() - at < length) return 0;
    if (byte(1) < second_min || byte(1) > second_max) return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (!continuation(byte(i))) return 0;
    return length;
}

bool is_control(std::string_view character) {
    return character.size() == 1 && (static_cast<unsigned char>(character[0]) < 0x20 || character[0] == 0x7F);
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t length = sequence_length(text, at);
        if (length == 0) return false;
        at += length;
    }
    return true;
}

std::string to_valid_utf8(std::string_view text) {
    if (is_valid_utf8(text)) return std::string(text);
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t length = sequence_length(text, at);
        if (length == 0) {
            out += kReplacement;
            ++at;
        } else {
            out += text.substr(at, length);
            at += length;
        }
    }
    return out;
}

std::string printable_excerpt(std::string_view text, std::size_t max_bytes) {
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t length = sequence_length(text, at);
        const std::size_t taken = length == 0 ? 1 : length;
        if (at + taken > max_bytes) break;
        const std::string_view character = text.substr(at, taken);
        out += length == 0 || is_control(character) ? kReplacement : character;
        at += taken;
    }
    if (at < text.size()) out += "...";
    return out;
}

}  // namespace lockcheck
