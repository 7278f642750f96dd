// `lockcheck suite --shard K/N`: the K-th of N slices of a suite's scenarios,
// so that a CI matrix of N runners runs one suite between them (docs/ci.md,
// "One suite over N runners"). Scenario i (0-based, in the suite's order:
// sorted by file name) belongs to slice (i mod N) + 1: every scenario is in
// exactly one slice, and the slices differ in size by at most one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace lockcheck {

struct SuiteShard {
    int index = 1;  ///< K, 1-based
    int count = 1;  ///< N; 1/1 is the whole suite
};

/// Parses "K/N" (decimal, 1 <= K <= N <= 1000). Throws SpecError (exit 254)
/// with one line naming the value otherwise.
SuiteShard parse_shard(const std::string& text);

/// The positions (0-based, ascending) of the scenarios of `shard` among `total`.
std::vector<std::size_t> shard_positions(std::size_t total, SuiteShard shard);

}  // namespace lockcheck
