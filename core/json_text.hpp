// JSON text crossing lockcheck's boundaries: worker replies, history lines,
// specs and stored results coming in; protocol lines, history records and
// result files going out.
//
// Coming in, nesting depth is bounded before any value is built: nlohmann::json
// parses iteratively but copies, compares and dumps values recursively, so a
// value nested 100,000 levels deep (200 KB of '[') overflows the stack long
// after it parsed. Going out, strings that are not valid UTF-8 (text a worker
// or a server produced) are written with U+FFFD in place of the bad bytes
// instead of throwing type_error.316 in the middle of a record.
#pragma once

#include <cstddef>
#include <istream>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// The deepest nesting of arrays and objects lockcheck reads: one op record,
/// worker reply or spec, counting the outer object as level 1.
inline constexpr std::size_t kMaxJsonDepth = 64;

/// JSON input that is malformed or nested too deep; what() says which, in a
/// few words ("not valid JSON (byte 7)", "JSON nested deeper than 64 levels").
class JsonInputError : public std::runtime_error {
public:
    JsonInputError(const std::string& message, bool too_deep) : std::runtime_error(message), too_deep_(too_deep) {}
    /// True when the text was rejected for its depth alone (it may be valid JSON).
    bool too_deep() const { return too_deep_; }

private:
    bool too_deep_;
};

/// Follows JSON text a character at a time and tells where the structure is:
/// outside every string ("..." with its backslash escapes), where brackets,
/// braces and commas mean something.
class JsonStringScanner {
public:
    /// Whether `c`, the next character, is outside every string (the quotes
    /// that open and close a string are not).
    bool outside_string(char c) {
        if (in_string_) {
            if (escaped_)
                escaped_ = false;
            else if (c == '\\')
                escaped_ = true;
            else if (c == '"')
                in_string_ = false;
            return false;
        }
        in_string_ = c == '"';
        return !in_string_;
    }

private:
    bool in_string_ = false;
    bool escaped_ = false;
};

/// The deepest nesting of arrays and objects in `text`, counting brackets
/// outside strings (exact for valid JSON). Stops scanning once the depth
/// exceeds `stop_after` and returns that depth.
std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after = std::numeric_limits<std::size_t>::max());

/// What a key that appears twice in one object means: the last one wins
/// (nlohmann's way, for records lockcheck wrote), or the text is refused
/// (for what a person wrote, e.g. a spec: one of the two values was a mistake).
enum class DuplicateKeys { LastWins, Refused };

/// Parses `text` as one JSON document nested at most `max_depth` levels.
/// Throws JsonInputError for deeper text (before parsing), for text that is
/// not JSON (including ill-formed UTF-8 and a NUL byte anywhere), for numbers out of range, and with
/// DuplicateKeys::Refused for a key twice in one object.
nlohmann::json parse_json_bounded(std::string_view text, std::size_t max_depth = kMaxJsonDepth,
                                  DuplicateKeys duplicates = DuplicateKeys::LastWins);

/// Reads the rest of `in` and parses it as parse_json_bounded does.
nlohmann::json parse_json_bounded(std::istream& in, std::size_t max_depth = kMaxJsonDepth,
                                  DuplicateKeys duplicates = DuplicateKeys::LastWins);

/// `json` as compact text; invalid UTF-8 in its strings becomes U+FFFD
/// instead of an exception. `indent` as for nlohmann::json::dump.
std::string dump_json(const nlohmann::json& json, int indent = -1);

}  // namespace lockcheck
