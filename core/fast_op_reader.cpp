#include "core/fast_op_reader.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <simdjson.h>

#include "core/padded_line_reader.hpp"

namespace lockcheck {

static_assert(PaddedLineReader::kPadding >= simdjson::SIMDJSON_PADDING);

struct FastOpReader::Parser {
    simdjson::dom::parser dom;
};

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

/// Whether `text` holds a byte simdjson and nlohmann might read differently:
/// an escape (decoded strings could differ on lone surrogates) or a control
/// character (nlohmann refuses one inside a string).
bool has_escape_or_control(std::string_view text) {
    bool found = false;
    for (const char c : text) found |= static_cast<unsigned char>(c) < 0x20 || c == '\\';
    return found;
}

bool read_int64(element value, std::int64_t& out) {
    return value.type() == element_type::INT64 && value.get_int64().get(out) == simdjson::SUCCESS;
}

/// A string field into a std::string, a Symbol or an OptionalSymbol.
template <typename Text>
bool read_string(element value, Text& out) {
    std::string_view text;
    if (value.get_string().get(text) != simdjson::SUCCESS) return false;
    out = text;
    return true;
}

/// An optional string field: null leaves it absent, as op_from_json does.
template <typename Text>
bool read_optional_string(element value, Text& out) {
    return value.is_null() || read_string(value, out);
}

/// An optional integer field (token, ttl_ms, valid_ms): null leaves it
/// absent. A value the field cannot hold (out of range, or the one that marks
/// "absent") is declined: the reference path names it.
template <typename Stored>
bool read_optional_integer(element value, OptionalInteger<Stored>& out) {
    if (value.is_null()) return true;
    std::int64_t number = 0;
    if (!read_int64(value, number) || !OptionalInteger<Stored>::fits(number)) return false;
    out = number;
    return true;
}

/// The value of field "value" as nlohmann's parser builds it: non-negative
/// integers unsigned, negative ones signed. Floats, arrays and objects are
/// declined (their depth and rounding are left to the reference path).
bool read_value(element value, nlohmann::json& out) {
    switch (value.type()) {
        case element_type::NULL_VALUE: out = nullptr; return true;
        case element_type::BOOL: out = value.get_bool().value_unsafe(); return true;
        case element_type::STRING: out = std::string(value.get_string().value_unsafe()); return true;
        case element_type::UINT64: out = value.get_uint64().value_unsafe(); return true;
        case element_type::INT64: {
            const std::int64_t number = value.get_int64().value_unsafe();
            if (number >= 0)
                out = static_cast<std::uint64_t>(number);
            else
                out = number;
            return true;
        }
        default: return false;
    }
}

bool read_process(element value, int& out) {
    std::string_view text;
    if (value.get_string().get(text) == simdjson::SUCCESS) {
        out = kNemesisProcess;
        return text == "nemesis";
    }
    std::int64_t number = 0;
    if (!read_int64(value, number) || number < 0 || number > std::numeric_limits<int>::max()) return false;
    out = static_cast<int>(number);
    return true;
}

bool read_type(element value, OpType& out) {
    std::string_view text;
    if (value.get_string().get(text) != simdjson::SUCCESS) return false;
    const auto type = op_type_from_string(text);
    if (!type) return false;
    out = *type;
    return true;
}

enum Field : unsigned {
    kIndex = 1u << 0,
    kTime = 1u << 1,
    kProcess = 1u << 2,
    kType = 1u << 3,
    kF = 1u << 4,
    kKey = 1u << 5,
    kValue = 1u << 6,
    kToken = 1u << 7,
    kError = 1u << 8,
    kNode = 1u << 9,
    kTtl = 1u << 10,
    kOwner = 1u << 11,
    kResource = 1u << 12,
    kValid = 1u << 13,
};
constexpr unsigned kRequired = kIndex | kTime | kProcess | kType | kF;

/// Reads one field into `op`; false for an unknown field or a value of the wrong type.
bool read_field(std::string_view name, element value, Op& op, unsigned& seen) {
    const auto once = [&seen](Field field) {
        const bool first = (seen & field) == 0;
        seen |= field;
        return first;
    };
    if (name == "index") return once(kIndex) && read_int64(value, op.index);
    if (name == "time") return once(kTime) && read_int64(value, op.time);
    if (name == "process") return once(kProcess) && read_process(value, op.process);
    if (name == "type") return once(kType) && read_type(value, op.type);
    if (name == "f") return once(kF) && read_string(value, op.f);
    if (name == "key") return once(kKey) && (value.is_null() || read_string(value, op.key));
    if (name == "value") return once(kValue) && read_value(value, op.value);
    if (name == "token") return once(kToken) && read_optional_integer(value, op.token);
    if (name == "error") return once(kError) && read_optional_string(value, op.error);
    if (name == "node") return once(kNode) && read_optional_string(value, op.node);
    if (name == "ttl_ms") return once(kTtl) && read_optional_integer(value, op.ttl_ms);
    if (name == "valid_ms") return once(kValid) && read_optional_integer(value, op.valid_ms);
    if (name == "owner") return once(kOwner) && read_optional_string(value, op.owner);
    if (name == "resource") return once(kResource) && read_optional_string(value, op.resource);
    return false;
}

}  // namespace

FastOpReader::FastOpReader() : parser_(std::make_unique<Parser>()) {}

FastOpReader::~FastOpReader() = default;

bool FastOpReader::read(std::string_view line, std::size_t capacity, Op& op) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (capacity < line.size() + simdjson::SIMDJSON_PADDING || has_escape_or_control(line)) return false;
    simdjson::dom::object object;
    if (parser_->dom.parse(line.data(), line.size(), false).get(object) != simdjson::SUCCESS) return false;
    unsigned seen = 0;
    for (const auto field : object)
        if (!read_field(field.key, field.value, op, seen)) return false;
    if ((seen & kRequired) != kRequired) return false;
    try {
        check_op_contract(op);
    } catch (const OpFormatError&) {
        return false;
    }
    return true;
}

}  // namespace lockcheck
