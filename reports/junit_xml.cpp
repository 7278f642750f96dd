#include "reports/junit_xml.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "reports/markup.hpp"
#include "reports/terminal_summary.hpp"

namespace lockcheck {

std::string junit_xml(const std::vector<JUnitSuite>& suites) {
    std::size_t tests = 0, failures = 0;
    double seconds = 0;
    for (const auto& s : suites) {
        tests += s.cases.size();
        for (const auto& c : s.cases) failures += c.failure ? 1 : 0;
        seconds += s.seconds;
    }
    std::string xml = fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                  "<testsuites name=\"lockcheck\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3f}\">\n",
                                  tests, failures, seconds);
    for (const auto& s : suites) {
        std::size_t suite_failures = 0;
        for (const auto& c : s.cases) suite_failures += c.failure ? 1 : 0;
        xml += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.3f}\">\n",
                           escape_markup(s.name), s.cases.size(), suite_failures, s.seconds);
        for (const auto& c : s.cases) {
            xml += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3f}\"", escape_markup(c.name),
                               escape_markup(c.classname), c.seconds);
            if (!c.failure && c.details.empty()) {
                xml += "/>\n";
                continue;
            }
            xml += ">\n";
            if (c.failure)
                xml += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", escape_markup(*c.failure),
                                   escape_markup(c.failure_type), escape_markup(c.details));
            else
                xml += fmt::format("      <system-out>{}</system-out>\n", escape_markup(c.details));
            xml += "    </testcase>\n";
        }
        xml += "  </testsuite>\n";
    }
    return xml + "</testsuites>\n";
}

JUnitSuite junit_for_report(const std::string& suite_name, const CheckReport& report, double seconds,
                            std::size_t max_listed) {
    JUnitSuite suite{suite_name, seconds, {}};
    for (const auto& checker : report.checkers) {
        JUnitCase c;
        c.name = checker.name;
        c.classname = "lockcheck." + suite_name;
        std::string listed;
        for (std::size_t i = 0; i < checker.violations.size() && i < max_listed; ++i) {
            const auto& v = checker.violations[i];
            std::string ops;
            for (auto op : v.ops) ops += (ops.empty() ? "" : ", ") + std::to_string(op);
            listed += fmt::format("{}: {} (ops {})\n", v.kind, v.description, ops);
        }
        const std::size_t shown = std::min(checker.violations.size(), max_listed);
        if (checker.violations_total() > shown)
            listed += fmt::format("... and {} more (results.json, report.html)\n", checker.violations_total() - shown);
        const std::string summary = checker_summary(checker);
        if (checker.counts_toward_verdict && checker.valid != Validity::Valid) {
            c.failure = fmt::format("{}: {}", to_string(checker.valid), summary);
            c.failure_type = std::string(to_string(checker.valid));
            c.details = listed;
        } else {
            c.details = summary + (checker.counts_toward_verdict ? "" : " (advisory; does not count toward the verdict)") +
                        (listed.empty() ? "" : "\n" + listed);
        }
        suite.cases.push_back(std::move(c));
    }
    return suite;
}

}  // namespace lockcheck
