#include "commands/shrink/ddmin.hpp"

#include <algorithm>
#include <map>

namespace lockcheck {
namespace {

/// `items` split into `n` chunks of near-equal size, in order.
std::vector<std::vector<std::size_t>> split(const std::vector<std::size_t>& items, std::size_t n) {
    std::vector<std::vector<std::size_t>> chunks;
    std::size_t begin = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t end = begin + (items.size() - begin) / (n - i);
        chunks.emplace_back(items.begin() + static_cast<std::ptrdiff_t>(begin),
                            items.begin() + static_cast<std::ptrdiff_t>(end));
        begin = end;
    }
    return chunks;
}

std::vector<std::size_t> without(const std::vector<std::size_t>& items, const std::vector<std::size_t>& removed) {
    std::vector<std::size_t> rest;
    std::set_difference(items.begin(), items.end(), removed.begin(), removed.end(), std::back_inserter(rest));
    return rest;
}

}  // namespace

DdminResult ddmin(std::size_t count, const DdminTest& fails) {
    DdminResult result;
    for (std::size_t i = 0; i < count; ++i) result.kept.push_back(i);
    std::map<std::vector<std::size_t>, bool> tested;
    // Whether `candidate` fails (asked once per list); nullopt: stop.
    const auto test = [&](const std::vector<std::size_t>& candidate) -> std::optional<bool> {
        if (candidate.empty()) return false;
        if (const auto it = tested.find(candidate); it != tested.end()) return it->second;
        const auto outcome = fails(candidate);
        if (outcome) tested[candidate] = *outcome;
        return outcome;
    };
    std::size_t n = 2;
    while (result.kept.size() >= 2) {
        const auto chunks = split(result.kept, n);
        std::optional<std::vector<std::size_t>> smaller;
        std::size_t next_n = 2;
        for (const auto& chunk : chunks) {
            const auto outcome = test(chunk);
            if (!outcome) return {result.kept, true};
            if (*outcome) {
                smaller = chunk;
                break;
            }
        }
        // With two chunks each complement is the other chunk, tested already.
        for (std::size_t i = 0; !smaller && n > 2 && i < chunks.size(); ++i) {
            const auto complement = without(result.kept, chunks[i]);
            const auto outcome = test(complement);
            if (!outcome) return {result.kept, true};
            if (*outcome) {
                smaller = complement;
                next_n = n - 1;
            }
        }
        if (smaller) {
            result.kept = *smaller;
            n = std::min(std::max<std::size_t>(next_n, 2), std::max<std::size_t>(result.kept.size(), 2));
            continue;
        }
        if (n >= result.kept.size()) break;
        n = std::min(result.kept.size(), 2 * n);
    }
    return result;
}

}  // namespace lockcheck
