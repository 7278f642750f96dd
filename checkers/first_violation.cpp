#include "checkers/first_violation.hpp"

#include "checkers/run_checkers.hpp"

namespace lockcheck {
namespace {

bool prefix_invalid(const History& history, std::size_t length) {
    const History prefix(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(length));
    return run_checkers(prefix).valid == Validity::Invalid;
}

}  // namespace

std::optional<FirstViolation> first_violation(const History& history) {
    if (history.empty() || run_checkers(history).valid != Validity::Invalid) return std::nullopt;
    std::size_t valid_up_to = 0;                // the longest prefix known not to be invalid
    std::size_t invalid_from = history.size();  // the shortest prefix known to be invalid
    while (invalid_from - valid_up_to > 1) {
        const std::size_t middle = valid_up_to + (invalid_from - valid_up_to) / 2;
        (prefix_invalid(history, middle) ? invalid_from : valid_up_to) = middle;
    }
    const Op& op = history[invalid_from - 1];
    return FirstViolation{op.index, static_cast<double>(op.time) / 1e9};
}

}  // namespace lockcheck
