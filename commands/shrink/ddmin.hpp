// Delta debugging (Zeller and Hildebrandt's ddmin): from a list of items
// (the fault events of a failing run) for which a test fails, a smaller list,
// 1-minimal, for which it still fails: removing any single item of it makes
// the test pass. `lockcheck shrink` runs it over a run's fault schedule.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace lockcheck {

/// Whether the items at these positions (ascending) still fail; nullopt when
/// the search must stop now (budget spent, Ctrl-C).
using DdminTest = std::function<std::optional<bool>(const std::vector<std::size_t>& positions)>;

struct DdminResult {
    std::vector<std::size_t> kept;  ///< positions of the smallest failing list found (ascending)
    bool stopped = false;           ///< the test asked to stop: `kept` is the best so far, not 1-minimal
};

/// ddmin over positions 0..count-1, assuming all of them fail: splits the
/// current list into n chunks (n = 2 at first), keeps the first chunk that
/// fails alone, else the first complement of a chunk that fails (n - 1
/// chunks next), else doubles n, until n exceeds the list's size. Never tests
/// the same list twice nor the empty list (a run without faults is not taken
/// to fail).
DdminResult ddmin(std::size_t count, const DdminTest& fails);

}  // namespace lockcheck
