#include "core/json_writer.hpp"

#include <algorithm>
#include <charconv>

#include "core/json_text.hpp"

namespace lockcheck {
namespace {

/// Bytes JSON writes as they are: printable ASCII other than '"' and '\\'.
bool needs_no_escape(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
    });
}

/// Appends `number` in decimal, as nlohmann writes either kind of integer.
template <class Integer>
void append_decimal(std::string& out, Integer number) {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, number).ptr);
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    if (!needs_no_escape(text)) {
        out.append(dump_json(nlohmann::json(std::string(text))));
        return;
    }
    out.push_back('"');
    out.append(text);
    out.push_back('"');
}

void append_json_integer(std::string& out, std::int64_t number) { append_decimal(out, number); }

void append_json_value(std::string& out, const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::null: out.append("null"); return;
        case nlohmann::json::value_t::boolean: out.append(value.get<bool>() ? "true" : "false"); return;
        case nlohmann::json::value_t::number_integer: append_json_integer(out, value.get<std::int64_t>()); return;
        case nlohmann::json::value_t::number_unsigned:  // what the parser makes of a non-negative integer
            append_decimal(out, value.get<std::uint64_t>());
            return;
        case nlohmann::json::value_t::string: append_json_string(out, value.get_ref<const std::string&>()); return;
        default: out.append(dump_json(value)); return;
    }
}

}  // namespace lockcheck
