#include "reports/lease_words.hpp"

#include <fmt/format.h>

#include "checkers/mutual_exclusion.hpp"

namespace lockcheck {
namespace {

/// The op's time in ms, from the linked op records, or -1 when it is not there.
double time_ms(const nlohmann::json& linked_ops, const Violation& v, std::size_t at) {
    if (v.ops.size() <= at) return -1;
    const auto key = std::to_string(v.ops[at]);
    if (!linked_ops.contains(key) || !linked_ops[key].contains("time") || !linked_ops[key]["time"].is_number())
        return -1;
    return linked_ops[key]["time"].get<double>() / 1e6;
}

/// Waits shorter than this are the round trip of an uncontended acquire: not worth a second figure.
constexpr double kWorthMentioningMs = 5;

}  // namespace

std::string lease_words(const Violation& overlap, const nlohmann::json& linked_ops) {
    const auto& d = overlap.details;
    const double left = d.contains("first_lease_left_ms") && d["first_lease_left_ms"].is_number()
                            ? d["first_lease_left_ms"].get<double>()
                            : 0;
    const double invoke = time_ms(linked_ops, overlap, 0), granted = time_ms(linked_ops, overlap, 1);
    const double wait = invoke >= 0 && granted >= invoke ? granted - invoke : 0;
    std::string from_grant;
    if (wait >= kWorthMentioningMs) {
        const double left_from_grant = left + wait;
        from_grant = fmt::format(" (the acquire waited {:.1f} ms for the grant; counting from the grant, {})", wait,
                                 left_from_grant < 0 ? fmt::format("it had expired {:.1f} ms before", -left_from_grant)
                                                     : fmt::format("it had {:.1f} ms left", left_from_grant));
    }
    if (overlap.kind == kOverlapWithinLease)
        return fmt::format(
            "its lease still had at least {:.1f} ms to run, counting from its acquire's invoke{}, so the "
            "lock service itself broke its promise",
            left, from_grant);
    return fmt::format(
        "its lease had expired up to {:.1f} ms before, counting from its acquire's invoke{}, but it "
        "still acted as the holder",
        -left, from_grant);
}

}  // namespace lockcheck
