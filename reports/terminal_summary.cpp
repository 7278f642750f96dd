#include "reports/terminal_summary.hpp"

#include <fmt/format.h>

#include <set>

#include "checkers/checker_registry.hpp"

namespace lockcheck {

std::string checker_summary(const CheckerResult& r) {
    const CheckerDescriptor* checker = find_checker_descriptor(r.name);
    return checker ? checker->summary(r) : stats_summary(r);
}

std::string verdict_sentence(const CheckReport& report) {
    switch (report.valid) {
        case Validity::Valid:
            for (const auto& c : report.checkers)
                if (const CheckerDescriptor* checker = find_checker_descriptor(c.name);
                    checker && !checker->valid_headline.empty())
                    return "VALID: " + std::string(checker->valid_headline);
            return "VALID: no checker found a violation";
        case Validity::Unknown:
            return "UNKNOWN: " + (report.unknown_reason.empty() ? std::string("the checkers could not decide this history")
                                                                : report.unknown_reason);
        case Validity::Invalid: break;
    }
    for (const auto& c : report.checkers)
        if (const CheckerDescriptor* checker = find_checker_descriptor(c.name);
            checker && c.valid == Validity::Invalid && !checker->invalid_headline.empty())
            return "INVALID: " + std::string(checker->invalid_headline);
    for (const auto& c : report.checkers)
        if (c.valid == Validity::Invalid && c.counts_toward_verdict)
            return "INVALID: the " + c.name + " checker found violations";
    return "INVALID";
}

std::string terminal_summary(const CheckReport& report) {
    std::string out = verdict_sentence(report) + "\n";
    for (const auto& c : report.checkers) {
        out += fmt::format("  {:<18} {:<8} {}{}\n", c.name, to_string(c.valid), checker_summary(c),
                           c.counts_toward_verdict ? "" : " (advisory: strict model without leases)");
        std::set<std::string> shown;
        for (const auto& v : c.violations) {
            if (!shown.insert(v.kind).second) continue;
            out += fmt::format("      {}: {}\n", v.kind, v.description);
        }
    }
    return out;
}

}  // namespace lockcheck
