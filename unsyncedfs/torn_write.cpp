#include "unsyncedfs/torn_write.hpp"

#include <sstream>
#include <stdexcept>

namespace lockcheck::unsyncedfs {
namespace {

/// splitmix64's finaliser: a well-mixed 64-bit value from any input.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

std::optional<TearMode> tear_mode_from_string(const std::string& text) {
    if (text == "none") return TearMode::None;
    if (text == "last-write-prefix") return TearMode::LastWritePrefix;
    if (text == "sectors") return TearMode::Sectors;
    return std::nullopt;
}

std::string to_string(TearMode mode) {
    switch (mode) {
        case TearMode::LastWritePrefix: return "last-write-prefix";
        case TearMode::Sectors: return "sectors";
        case TearMode::None: break;
    }
    return "none";
}

std::optional<Tear> tear_from_arguments(const std::string& arguments) {
    std::istringstream words(arguments);
    std::string mode_word, seed_word, extra;
    if (!(words >> mode_word)) return Tear{};
    if (!(words >> seed_word) || (words >> extra)) return std::nullopt;
    if (mode_word.rfind("torn=", 0) != 0 || seed_word.rfind("seed=", 0) != 0) return std::nullopt;
    const auto mode = tear_mode_from_string(mode_word.substr(5));
    const std::string digits = seed_word.substr(5);
    if (!mode || digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 20)
        return std::nullopt;
    try {
        return Tear{*mode, std::stoull(digits)};
    } catch (const std::out_of_range&) {
        return std::nullopt;
    }
}

std::string tear_arguments(const Tear& tear) {
    if (tear.mode == TearMode::None) return "";
    return "torn=" + to_string(tear.mode) + " seed=" + std::to_string(tear.seed);
}

std::size_t torn_prefix_length(std::uint64_t seed, off_t offset, std::size_t length) {
    if (length < 2) return 0;
    const std::uint64_t draw = mix(seed ^ mix(static_cast<std::uint64_t>(offset) ^ mix(length)));
    return 1 + static_cast<std::size_t>(draw % (length - 1));
}

bool sector_survives(std::uint64_t seed, off_t sector) {
    return (mix(seed ^ mix(static_cast<std::uint64_t>(sector))) & 1) != 0;
}

}  // namespace lockcheck::unsyncedfs
