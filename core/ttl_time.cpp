#include "core/ttl_time.hpp"

#include <cmath>
#include <exception>
#include <sstream>
#include <string>

#include "core/json_integer.hpp"

namespace lockcheck {

std::int64_t TtlTime::resolve(std::int64_t ttl_ms) const {
    return ttl_factor ? static_cast<std::int64_t>(*ttl_factor * static_cast<double>(ttl_ms)) : ms;
}

nlohmann::json TtlTime::to_json() const {
    if (!ttl_factor) return ms;
    std::ostringstream text;
    text << *ttl_factor << "xttl";
    return text.str();
}

std::optional<TtlTime> ttl_time_from_json(const nlohmann::json& value, bool negative_ms) {
    if (const auto ms = json_integer<std::int64_t>(value); ms && (*ms >= 0 || negative_ms))
        return TtlTime{*ms, std::nullopt};
    if (!value.is_string()) return std::nullopt;
    const auto text = value.get<std::string>();
    const auto x = text.find("xttl");
    if (x == std::string::npos || x == 0 || x + 4 != text.size()) return std::nullopt;
    try {
        std::size_t used = 0;
        const double factor = std::stod(text.substr(0, x), &used);
        if (used == x && std::isfinite(factor) && factor >= 0) return TtlTime{0, factor};
    } catch (const std::exception&) {  // not a number before "xttl"
    }
    return std::nullopt;
}

}  // namespace lockcheck
