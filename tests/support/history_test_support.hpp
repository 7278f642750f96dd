// Shared by the history tests: the one-line error a history text gets.
#pragma once

#include <sstream>
#include <string>

#include "core/history_io.hpp"

namespace lockcheck::testing {

/// The HistoryError message of reading `text` as a history named "h.jsonl",
/// or "" when it is accepted.
inline std::string history_error_of(const std::string& text) {
    std::istringstream in(text);
    try {
        parse_history(in, "h.jsonl");
    } catch (const HistoryError& e) {
        return e.what();
    }
    return "";
}

}  // namespace lockcheck::testing
