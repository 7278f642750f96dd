#include "commands/flag_checks.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <limits>

namespace lockcheck {

CLI::Validator positive_at_most(double max, const std::string& unit, const std::string& in_words) {
    return CLI::Validator(
        [=](const std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !(value > 0 && value <= max))
                return fmt::format("must be more than 0 and at most {} {} ({}), not '{}'", max, unit, in_words, text);
            return "";
        },
        fmt::format("(0, {}]", max));
}

CLI::Validator seed_number() {
    return CLI::Validator(
        [](const std::string& text) -> std::string {
            std::uint64_t value = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (error != std::errc() || end != text.data() + text.size())
                return fmt::format("must be an integer from 0 to {}, not '{}'",
                                   std::numeric_limits<std::uint64_t>::max(), text);
            return "";
        },
        "SEED");
}

}  // namespace lockcheck
