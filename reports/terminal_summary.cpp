#include "reports/terminal_summary.hpp"

#include <fmt/format.h>

#include <set>

namespace lockcheck {
namespace {

std::int64_t stat(const CheckerResult& r, const char* name) {
    auto it = r.stats.find(name);
    return it != r.stats.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

}  // namespace

std::string checker_summary(const CheckerResult& r) {
    if (r.name == "mutual-exclusion")
        return fmt::format("{} overlaps ({} within lease, {} after the lease expired) in {} lock sessions",
                           stat(r, "overlaps"), stat(r, "within_lease"), stat(r, "lease_expired"), stat(r, "sessions"));
    if (r.name == "resource")
        return fmt::format("{} lost updates, {} stale writes accepted, {} accesses fenced, {} writes accepted",
                           stat(r, "lost_updates"), stat(r, "stale_writes_accepted"), stat(r, "fenced"),
                           stat(r, "writes_accepted"));
    if (r.stats.contains("summary") && r.stats["summary"].is_string()) return r.stats["summary"].get<std::string>();
    return fmt::format("{} violations", r.violations.size());
}

std::string verdict_sentence(const CheckReport& report) {
    switch (report.valid) {
        case Validity::Valid: return "VALID: no two clients held one lock at once, and no update was lost";
        case Validity::Unknown: return "UNKNOWN: the checkers could not decide this history";
        case Validity::Invalid: break;
    }
    for (const auto& c : report.checkers)
        if (c.name == "mutual-exclusion" && c.valid == Validity::Invalid)
            return "INVALID: two clients held the same lock at the same time";
    for (const auto& c : report.checkers)
        if (c.valid == Validity::Invalid) return "INVALID: the " + c.name + " checker found violations";
    return "INVALID";
}

std::string terminal_summary(const CheckReport& report) {
    std::string out = verdict_sentence(report) + "\n";
    for (const auto& c : report.checkers) {
        out += fmt::format("  {:<18} {:<8} {}\n", c.name, to_string(c.valid), checker_summary(c));
        std::set<std::string> shown;
        for (const auto& v : c.violations) {
            if (!shown.insert(v.kind).second) continue;
            out += fmt::format("      {}: {}\n", v.kind, v.description);
        }
    }
    return out;
}

}  // namespace lockcheck
