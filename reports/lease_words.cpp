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

double detail(const Violation& v, const char* field) {
    const auto& d = v.details;
    return d.contains(field) && d[field].is_number() ? d[field].get<double>() : 0;
}

}  // namespace

std::string lease_words(const Violation& overlap, const nlohmann::json& linked_ops) {
    const double left = detail(overlap, "first_lease_left_ms");
    const double over_by = detail(overlap, "first_lease_over_by_ms");
    if (const auto order = overlap.details.find("server_order"); order != overlap.details.end() && order->is_object()) {
        const std::string fact = order->value("fact", std::string());
        if (overlap.kind == kGrantWithoutOwnKey)
            return "the servers' own record decides it: " + fact +
                   ": your client should read its own key again after waiting, and give up when it is gone";
        return "the servers' own record decides it: " + fact +
               ": every lease lock without fencing does this when its holder stalls";
    }
    if (overlap.kind == kLateGrant) {
        const auto late = overlap.details.value("late_process", -1);
        return fmt::format(
            "worker {} used a grant that arrived after its own lease had ended{}: your client should check what "
            "is left of a lease before it acts on the grant (Redlock's validity time) and give a late grant back",
            late, overlap.details.contains("second_valid_ms") && late == overlap.details.value("second_process", -2)
                      ? fmt::format(" (it reported valid_ms {})", overlap.details["second_valid_ms"].dump())
                      : "");
    }
    if (overlap.kind == kOverlapWithinLease)
        return fmt::format(
            "its lease still had at least {:.1f} ms to run, counting from its acquire's invoke, so the lock service "
            "itself (or the recipe) broke its promise",
            left);
    if (overlap.kind == kOverlapLeaseExpired)
        return fmt::format(
            "its lease had certainly expired, {:.1f} ms or more before this grant arrived, but it still acted as the "
            "holder: every lease lock without fencing does this when its holder stalls",
            -over_by);
    const double invoke = time_ms(linked_ops, overlap, 0), granted = time_ms(linked_ops, overlap, 1);
    return fmt::format(
        "the record cannot say whose fault this is: its lease ended between {:.1f} ms before and {:.1f} ms after "
        "this grant arrived (it began somewhere in the {:.1f} ms between its acquire's invoke and its grant)",
        -left, over_by, invoke >= 0 && granted >= invoke ? granted - invoke : 0.0);
}

}  // namespace lockcheck
