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

/// Appends one JSON object to `out` field by field, with the commas between
/// them; the caller gives the fields in name order (as nlohmann's object keeps
/// them) and calls close() once after the last.
class JsonObjectAppender {
public:
    /// Appends the opening brace.
    explicit JsonObjectAppender(std::string& out) : out_(out) { out_.push_back('{'); }

    void text(std::string_view name, std::string_view text) {
        next_field(name);
        append_json_string(out_, text);
    }
    void integer(std::string_view name, std::int64_t number) {
        next_field(name);
        append_json_integer(out_, number);
    }
    void value(std::string_view name, const nlohmann::json& value) {
        next_field(name);
        append_json_value(out_, value);
    }
    /// Appends the closing brace.
    void close() { out_.push_back('}'); }

private:
    /// Appends the comma before every field but the first, then `"name":`
    /// (`name` is plain ASCII with nothing to escape).
    void next_field(std::string_view name) {
        if (!first_) out_.push_back(',');
        first_ = false;
        out_.push_back('"');
        out_.append(name);
        out_.append("\":");
    }
    std::string& out_;
    bool first_ = true;
};

}  // namespace lockcheck
