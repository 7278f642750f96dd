// Appending JSON text without building a nlohmann DOM, for the lines the
// controller writes once per op (history records, worker requests). Each
// function writes exactly the text dump_json (core/json_text.hpp) writes for
// the same value, so the files and the protocol stay byte for byte the same:
// the common cases (printable ASCII strings, integers) are written here, and
// anything else (escapes, non-ASCII or invalid UTF-8, floats, arrays, objects)
// goes through dump_json.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// Appends `text` as a JSON string, quoted and escaped as dump_json does.
void append_json_string(std::string& out, std::string_view text);

/// Appends `number` in decimal.
void append_json_integer(std::string& out, std::int64_t number);

/// Appends `value` as dump_json(value) would.
void append_json_value(std::string& out, const nlohmann::json& value);

/// Appends `"name":` (a field's name; `name` is plain ASCII with nothing to escape).
inline void append_json_name(std::string& out, std::string_view name) {
    out.push_back('"');
    out.append(name);
    out.append("\":");
}

}  // namespace lockcheck
