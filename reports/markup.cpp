#include "reports/markup.hpp"

#include "core/utf8_text.hpp"

namespace lockcheck {

std::string escape_markup(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    // A path or a worker's text may hold bytes that are no UTF-8, which the XML and HTML declared UTF-8 must not.
    for (char c : to_valid_utf8(text)) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') break;
                out += c;
        }
    }
    return out;
}

std::string json_for_script(const nlohmann::json& json) {
    const std::string text = json.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '<' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '!')) {
            out += "\\u003c";
            continue;
        }
        out += text[i];
    }
    return out;
}

}  // namespace lockcheck
