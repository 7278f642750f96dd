// Writing a file atomically: the text goes to a temporary file beside it
// (.NAME.tmp) that is then renamed over NAME, so a reader sees the old file
// or the new one, never half of one. Every file lockcheck writes for people
// or machines (results.json, report.html, junit.xml, suite.json, ...) is
// written this way.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// Writes `text` to `path` atomically (.NAME.tmp, then a rename); throws
/// std::runtime_error on failure, and leaves no .NAME.tmp behind.
void write_text_file(const std::filesystem::path& path, const std::string& text);

/// Writes JSON to `path` atomically, as write_text_file does: indented by
/// two, strings that are not valid UTF-8 written with U+FFFD (core/json_text.hpp).
void write_json_file(const std::filesystem::path& path, const nlohmann::json& json);

}  // namespace lockcheck
