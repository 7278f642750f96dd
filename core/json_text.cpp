#include "core/json_text.hpp"

#include <iterator>

namespace lockcheck {

std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after) {
    std::size_t depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        switch (c) {
            case '"': in_string = true; break;
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

nlohmann::json parse_json_bounded(std::string_view text, std::size_t max_depth) {
    if (json_nesting_depth(text, max_depth) > max_depth)
        throw JsonInputError("JSON nested deeper than " + std::to_string(max_depth) + " levels", true);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw JsonInputError("not valid JSON (byte " + std::to_string(e.byte) + ")", false);
    } catch (const nlohmann::json::exception&) {  // out_of_range: a number too large for any type
        throw JsonInputError("not valid JSON (a number out of range)", false);
    }
}

nlohmann::json parse_json_bounded(std::istream& in, std::size_t max_depth) {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return parse_json_bounded(text, max_depth);
}

std::string dump_json(const nlohmann::json& json, int indent) {
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace lockcheck
