// Escaping for the HTML and XML lockcheck writes (report.html, compare.html, junit.xml).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// Escapes & < > " ' so the text is safe in element content and in quoted attributes;
/// drops control characters XML 1.0 forbids; bytes that are not well-formed
/// UTF-8 become U+FFFD, so the document stays well-formed.
std::string escape_markup(std::string_view text);

/// JSON safe to embed in <script type="application/json">: no "</" sequence, ASCII only.
std::string json_for_script(const nlohmann::json& json);

}  // namespace lockcheck
