// Checks of flag values that several subcommands share (CLI11 validators),
// each refusing a bad value with a message that says the bound in words.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace lockcheck {

/// A flag's value must be a number in (0, max]; the message says the bound in
/// words rather than as a floating-point range.
CLI::Validator positive_at_most(double max, const std::string& unit, const std::string& in_words);

/// A seed as the spec field takes it: decimal digits that fit in 64 bits
/// (CLI11 alone would wrap "-1" and 2^64 to 2^64 - 1).
CLI::Validator seed_number();

}  // namespace lockcheck
