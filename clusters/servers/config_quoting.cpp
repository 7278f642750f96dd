#include "clusters/servers/config_quoting.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace lockcheck {
namespace {

bool is_printable_ascii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

/// The Unicode code points of UTF-8 `text`; throws std::invalid_argument at
/// the first malformed, overlong or surrogate sequence.
std::vector<char32_t> utf8_code_points(std::string_view text) {
    std::vector<char32_t> points;
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const int length = lead < 0x80           ? 1
                           : (lead >> 5) == 0x6  ? 2
                           : (lead >> 4) == 0xe  ? 3
                           : (lead >> 3) == 0x1e ? 4
                                                 : 0;
        if (length == 0 || i + static_cast<std::size_t>(length) > text.size())
            throw std::invalid_argument("not UTF-8 at byte " + std::to_string(i));
        char32_t point = length == 1 ? lead : lead & (0x7fu >> length);
        for (int k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
            if ((next & 0xc0) != 0x80) throw std::invalid_argument("not UTF-8 at byte " + std::to_string(i));
            point = (point << 6) | (next & 0x3fu);
        }
        static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (point < kSmallest[length] || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff))
            throw std::invalid_argument("not UTF-8 at byte " + std::to_string(i));
        points.push_back(point);
        i += static_cast<std::size_t>(length);
    }
    return points;
}

void append_java_unicode_escape(std::string& out, char32_t point) {
    if (point < 0x10000) {
        out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(point));
        return;
    }
    const auto offset = static_cast<std::uint32_t>(point - 0x10000);  // a UTF-16 surrogate pair
    out += fmt::format("\\u{:04x}\\u{:04x}", 0xd800 + (offset >> 10), 0xdc00 + (offset & 0x3ff));
}

bool is_properties_whitespace(char32_t c) { return c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r'; }

}  // namespace

std::string redis_config_quote(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\' || c == '"')
            out += {'\\', c};
        else if (is_printable_ascii(byte))
            out += c;
        else
            out += fmt::format("\\x{:02x}", byte);
    }
    return out + "\"";
}

std::string zookeeper_config_value(std::string_view text) {
    std::vector<char32_t> points;
    try {
        points = utf8_code_points(text);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("a ZooKeeper config value (a path or an address) is ") + e.what());
    }
    if (!points.empty() && (is_properties_whitespace(points.front()) || is_properties_whitespace(points.back())))
        throw std::invalid_argument(
            "a ZooKeeper config value (a path or an address) starts or ends with whitespace, "
            "which ZooKeeper trims");
    std::string out;
    for (const char32_t c : points) {
        switch (c) {
            case '\\':
            case '=':
            case ':':
            case '#':
            case '!': out += {'\\', static_cast<char>(c)}; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\f': out += "\\f"; break;
            default:
                if (c < 0x80 && is_printable_ascii(static_cast<unsigned char>(c)))
                    out += static_cast<char>(c);
                else
                    append_java_unicode_escape(out, c);
        }
    }
    return out;
}

std::string mysql_quote(std::string_view text) {
    std::string out = "'";
    for (const char c : text) {
        switch (c) {
            case '\0': out += "\\0"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\x1a': out += "\\Z"; break;
            case '\\': out += "\\\\"; break;
            case '\'': out += "\\'"; break;
            default: out += c;
        }
    }
    return out + "'";
}

std::string file_url(std::string_view path) {
    std::string out = "file://";
    for (const char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' ||
                           c == '.' || c == '_' || c == '~' || c == '-';
        if (plain)
            out += c;
        else
            out += fmt::format("%{:02X}", byte);
    }
    return out;
}

std::string shell_quote(std::string_view text) {
    std::string quoted = "'";
    for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string shell_command_line(const std::vector<std::string>& argv) {
    std::string command;
    for (const auto& word : argv) command += (command.empty() ? "" : " ") + shell_quote(word);
    return command;
}

}  // namespace lockcheck
