#include "commands/suite/suite_shard.hpp"

#include <charconv>
#include <optional>
#include <string_view>

#include "spec/spec.hpp"

namespace lockcheck {
namespace {

constexpr int kMaxShards = 1000;

/// The whole of `text` as a decimal number; nullopt when it is not one.
std::optional<int> whole_number(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

SuiteShard parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    const std::string_view view(text);
    const auto k = slash == std::string::npos ? std::nullopt : whole_number(view.substr(0, slash));
    const auto n = slash == std::string::npos ? std::nullopt : whole_number(view.substr(slash + 1));
    if (!k || !n || *n < 1 || *n > kMaxShards || *k < 1 || *k > *n)
        throw SpecError("suite: --shard must be K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) + ", got '" +
                        text + "'");
    return {*k, *n};
}

std::vector<std::size_t> shard_positions(std::size_t total, SuiteShard shard) {
    std::vector<std::size_t> positions;
    const auto count = static_cast<std::size_t>(shard.count);
    for (auto i = static_cast<std::size_t>(shard.index - 1); i < total; i += count) positions.push_back(i);
    return positions;
}

}  // namespace lockcheck
