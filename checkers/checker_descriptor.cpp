#include "checkers/checker_descriptor.hpp"

#include <fmt/format.h>

#include "core/counted.hpp"
#include "core/json_path.hpp"

namespace lockcheck {

bool applies_always(const History&) { return true; }

std::string stats_summary(const CheckerResult& result) {
    if (const auto it = result.stats.find("summary"); it != result.stats.end() && it->is_string())
        return it->get<std::string>();
    return counted(static_cast<std::int64_t>(result.violations_total()), "violation");
}

std::int64_t stat_integer(const CheckerResult& result, std::string_view name) {
    const auto it = result.stats.find(name);
    return it != result.stats.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

double stat_number(const nlohmann::json& stats, std::initializer_list<std::string_view> path) {
    const nlohmann::json* at = json_at(stats, path);
    return at && at->is_number() ? at->get<double>() : 0;
}

}  // namespace lockcheck
