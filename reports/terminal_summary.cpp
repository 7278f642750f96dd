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
            return "UNKNOWN: " + (report.unknown_reason.empty()
                                      ? std::string("the checkers could not decide this history")
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

const Violation* gravest_violation(const CheckerResult& result, std::string_view kind) {
    const auto overlap_ms = [](const Violation& v) {
        const auto it = v.details.find("overlap_ms");
        return it != v.details.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    const Violation* gravest = nullptr;
    for (const auto& v : result.violations)
        if ((kind.empty() || v.kind == kind) && (!gravest || overlap_ms(v) > overlap_ms(*gravest))) gravest = &v;
    return gravest;
}

namespace {

/// What the servers' own record decided, in one line (checkers/server_witness.hpp); "" without one.
std::string witness_line(const nlohmann::json& witness) {
    if (witness.is_null()) return "";
    const std::string server = witness.value("server", std::string("the servers"));
    if (!witness.value("read", false))
        return fmt::format("  witness: {}'s own record was not read: {}; the classes above stand\n", server,
                           witness.value("why", std::string("unknown")));
    const std::string untrusted = witness.value("expiries_trusted", true)
                                      ? ""
                                      : " (its session expiries prove nothing: a fault moved the servers' clocks)";
    return fmt::format(
        "  witness: {}'s own record, {} events read in {:.2f} s, decided {} of {} undecided overlaps{}\n", server,
        witness.value("events", 0), witness.value("seconds", 0.0), witness.value("decided", 0),
        witness.value("undecided", 0), untrusted);
}

}  // namespace

std::string terminal_summary(const CheckReport& report) {
    std::string out = verdict_sentence(report) + "\n";
    for (const auto& c : report.checkers) {
        out += fmt::format("  {:<18} {:<8} {}{}\n", c.name, to_string(c.valid), checker_summary(c),
                           c.counts_toward_verdict ? "" : " (advisory: strict model without leases)");
        std::set<std::string> shown;
        const auto show = [&](const Violation* v) {
            if (v && shown.insert(v->kind).second) out += fmt::format("      {}: {}\n", v->kind, v->description);
        };
        show(gravest_violation(c));
        for (const auto& v : c.violations) show(gravest_violation(c, v.kind));
    }
    return out + witness_line(report.witness);
}

}  // namespace lockcheck
