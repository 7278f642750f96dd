#include "core/ttl_time.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/json_integer.hpp"

namespace lockcheck {

std::int64_t TtlTime::resolve(std::int64_t ttl_ms) const {
    return ttl_factor ? static_cast<std::int64_t>(*ttl_factor * static_cast<double>(ttl_ms)) : ms;
}

nlohmann::json TtlTime::to_json() const {
    if (!ttl_factor) return ms;
    // Fixed notation, shortest that reads back the same: "1e-07xttl" would not read back.
    char digits[400];
    const auto end = std::to_chars(digits, digits + sizeof digits, *ttl_factor, std::chars_format::fixed).ptr;
    return std::string(digits, end) + "xttl";
}

namespace {

/// Digits with at most one '.' between digits ("2", "1.5"), after a '-' when `negative` is allowed: no
/// sign '+', no blank, no hexadecimal or exponent (std::stod takes " 1", "+2" and "0x10").
bool is_plain_decimal(const std::string& text, bool negative) {
    std::size_t i = negative && !text.empty() && text[0] == '-' ? 1 : 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
        return i > from;
    };
    if (!digits()) return false;
    if (i < text.size() && text[i] == '.' && (++i, !digits())) return false;
    return i == text.size();
}

}  // namespace

std::optional<TtlTime> ttl_time_from_json(const nlohmann::json& value, bool negative_ms) {
    if (const auto ms = json_integer<std::int64_t>(value); ms && (*ms >= 0 || negative_ms))
        return TtlTime{*ms, std::nullopt};
    if (!value.is_string()) return std::nullopt;
    const auto text = value.get<std::string>();
    const auto x = text.find("xttl");
    if (x == std::string::npos || x + 4 != text.size()) return std::nullopt;
    const std::string number = text.substr(0, x);
    if (!is_plain_decimal(number, negative_ms)) return std::nullopt;
    const double factor = std::strtod(number.c_str(), nullptr);
    if (std::isfinite(factor)) return TtlTime{0, factor};
    return std::nullopt;
}

}  // namespace lockcheck
