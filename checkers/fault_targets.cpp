#include "checkers/fault_targets.hpp"

namespace lockcheck {

std::optional<int> targeted_worker(std::string_view target) {
    constexpr std::string_view prefix = "worker ";
    if (!target.starts_with(prefix)) return std::nullopt;
    const std::string_view digits = target.substr(prefix.size());
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    int process = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        process = process * 10 + (c - '0');
    }
    return process;
}

std::optional<int> single_targeted_worker(const nlohmann::json& fault_value) {
    if (!fault_value.is_object()) return std::nullopt;
    const auto targets = fault_value.find("targets");
    if (targets == fault_value.end() || !targets->is_array() || targets->size() != 1 || !(*targets)[0].is_string())
        return std::nullopt;
    return targeted_worker((*targets)[0].get_ref<const std::string&>());
}

}  // namespace lockcheck
