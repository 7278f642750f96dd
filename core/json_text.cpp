#include "core/json_text.hpp"

#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace lockcheck {

std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after) {
    std::size_t depth = 0, deepest = 0;
    JsonStringScanner scanner;
    for (const char c : text) {
        if (!scanner.outside_string(c)) continue;
        switch (c) {
            case '[':
            case '{':
                if (++depth > deepest) {
                    deepest = depth;
                    if (deepest > stop_after) return deepest;
                }
                break;
            case ']':
            case '}':
                if (depth > 0) --depth;
                break;
            default: break;
        }
    }
    return deepest;
}

namespace {

/// nlohmann::json::parse(text), throwing JsonInputError at the first key that
/// appears a second time in its object.
nlohmann::json parse_refusing_duplicate_keys(std::string_view text) {
    std::vector<std::set<std::string>> open_objects;  // the keys seen in each object not yet closed
    return nlohmann::json::parse(text, [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        if (event == Event::object_start) open_objects.emplace_back();
        if (event == Event::object_end) open_objects.pop_back();
        if (event == Event::key && !open_objects.back().insert(parsed.get<std::string>()).second)
            throw JsonInputError("key " + dump_json(parsed) + " appears twice in one object", false);
        return true;
    });
}

}  // namespace

nlohmann::json parse_json_bounded(std::string_view text, std::size_t max_depth, DuplicateKeys duplicates) {
    if (json_nesting_depth(text, max_depth) > max_depth)
        throw JsonInputError("JSON nested deeper than " + std::to_string(max_depth) + " levels", true);
    // nlohmann's parser takes a NUL for the end of the input: "{...}\0garbage" would read as "{...}".
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        throw JsonInputError("not valid JSON (a NUL byte at byte " + std::to_string(nul + 1) + ")", false);
    try {
        if (duplicates == DuplicateKeys::Refused) return parse_refusing_duplicate_keys(text);
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw JsonInputError("not valid JSON (byte " + std::to_string(e.byte) + ")", false);
    } catch (const nlohmann::json::exception&) {  // out_of_range: a number too large for any type
        throw JsonInputError("not valid JSON (a number out of range)", false);
    }
}

nlohmann::json parse_json_bounded(std::istream& in, std::size_t max_depth, DuplicateKeys duplicates) {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return parse_json_bounded(text, max_depth, duplicates);
}

std::string dump_json(const nlohmann::json& json, int indent) {
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace lockcheck
