// A count with its noun in the right number: "1 overlap", "7 overlaps",
// "0 lost updates". Every summary line that counts things says them so.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace lockcheck {

/// "N noun" for N == 1, else "N nouns" (or "N <plural>" when the plural is
/// not the noun plus "s", e.g. counted(2, "process", "processes")).
inline std::string counted(std::int64_t n, std::string_view noun, std::string_view plural = {}) {
    if (n == 1) return fmt::format("1 {}", noun);
    if (!plural.empty()) return fmt::format("{} {}", n, plural);
    return fmt::format("{} {}s", n, noun);
}

}  // namespace lockcheck
