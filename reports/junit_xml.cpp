#include "reports/junit_xml.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "reports/markup.hpp"
#include "reports/terminal_summary.hpp"

namespace lockcheck {

namespace {

std::size_t count_cases(const JUnitSuite& suite, bool (*counted)(const JUnitCase&)) {
    return static_cast<std::size_t>(std::count_if(suite.cases.begin(), suite.cases.end(), counted));
}
bool failed(const JUnitCase& c) { return c.failure.has_value(); }
bool was_skipped(const JUnitCase& c) { return !c.failure && c.skipped.has_value(); }

std::string testcase_xml(const JUnitCase& c) {
    std::string xml = fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3f}\"", escape_markup(c.name),
                                  escape_markup(c.classname), c.seconds);
    if (!c.failure && !c.skipped && c.details.empty()) return xml + "/>\n";
    xml += ">\n";
    if (c.failure)
        xml += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", escape_markup(*c.failure),
                           escape_markup(c.failure_type), escape_markup(c.details));
    else if (c.skipped)
        xml += fmt::format("      <skipped message=\"{}\"/>\n", escape_markup(*c.skipped));
    if (!c.failure && !c.details.empty())
        xml += fmt::format("      <system-out>{}</system-out>\n", escape_markup(c.details));
    return xml + "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const std::vector<JUnitSuite>& suites) {
    std::size_t tests = 0, failures = 0, skipped = 0;
    double seconds = 0;
    for (const auto& s : suites) {
        tests += s.cases.size();
        failures += count_cases(s, failed);
        skipped += count_cases(s, was_skipped);
        seconds += s.seconds;
    }
    std::string xml = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"lockcheck\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n",
        tests, failures, skipped, seconds);
    for (const auto& s : suites) {
        xml += fmt::format(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n",
            escape_markup(s.name), s.cases.size(), count_cases(s, failed), count_cases(s, was_skipped), s.seconds);
        if (!s.properties.empty()) {
            xml += "    <properties>\n";
            for (const auto& [name, value] : s.properties)
                xml += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", escape_markup(name),
                                   escape_markup(value));
            xml += "    </properties>\n";
        }
        for (const auto& c : s.cases) xml += testcase_xml(c);
        xml += "  </testsuite>\n";
    }
    return xml + "</testsuites>\n";
}

namespace {

/// Up to `max_listed` of the checker's violations, one line each, and how many more there are.
std::string listed_violations(const CheckerResult& checker, std::size_t max_listed) {
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
    return listed;
}

std::string report_line(const CheckerResult& checker, const std::string& listed) {
    return checker_summary(checker) +
           (checker.counts_toward_verdict ? "" : " (advisory; does not count toward the verdict)") +
           (listed.empty() ? "" : "\n" + listed);
}

/// "invalid, with overlap-lease-expired and lost-update, without overlap-within-lease", from the spec's expect.
std::string expected_words(const nlohmann::json& spec) {
    const auto expect = spec.is_object() && spec.contains("expect") ? spec["expect"] : nlohmann::json::object();
    const auto names = [&](const char* field) {
        std::string text;
        if (expect.contains(field) && expect[field].is_array())
            for (const auto& kind : expect[field])
                text += (text.empty() ? "" : " and ") + (kind.is_string() ? kind.get<std::string>() : kind.dump());
        return text;
    };
    std::string words = !expect.contains("valid")      ? "any verdict"
                        : expect["valid"].is_boolean() ? (expect["valid"].get<bool>() ? "valid" : "invalid")
                                                       : expect["valid"].dump();
    if (const auto has = names("has"); !has.empty()) words += ", with " + has;
    if (const auto lacks = names("lacks"); !lacks.empty()) words += ", without " + lacks;
    return words;
}

}  // namespace

JUnitSuite junit_for_report(const std::string& suite_name, const CheckReport& report, double seconds,
                            std::size_t max_listed) {
    JUnitSuite suite{suite_name, seconds, {}};
    for (const auto& checker : report.checkers) {
        JUnitCase c;
        c.name = checker.name;
        c.classname = "lockcheck." + suite_name;
        c.seconds = checker.seconds;
        const std::string listed = listed_violations(checker, max_listed);
        if (checker.counts_toward_verdict && checker.valid != Validity::Valid) {
            c.failure = fmt::format("{}: {}", to_string(checker.valid), checker_summary(checker));
            c.failure_type = std::string(to_string(checker.valid));
            c.details = listed;
        } else {
            c.details = report_line(checker, listed);
        }
        suite.cases.push_back(std::move(c));
    }
    if (report.valid == Validity::Unknown && !report.unknown_reason.empty())
        suite.cases.push_back({std::string(kVerdictCase), "lockcheck." + suite_name, 0,
                               "unknown: " + report.unknown_reason, "unknown", ""});
    return suite;
}

JUnitSuite junit_for_run(const std::string& suite_name, const CheckReport& report, const nlohmann::json& results,
                         const nlohmann::json& spec, std::size_t max_listed) {
    double seconds = 0;
    if (results.contains("run") && results["run"].contains("seconds") && results["run"]["seconds"].is_number())
        seconds = results["run"]["seconds"].get<double>();
    JUnitSuite suite = junit_for_report(suite_name, report, seconds, max_listed);
    if (results.contains("run") && results["run"].is_object())
        for (const char* field : {"client", "seed", "run_id"})
            if (const auto it = results["run"].find(field);
                it != results["run"].end() && !it->is_null() && !(it->is_string() && it->get<std::string>().empty()))
                suite.properties.emplace_back(field, it->is_string() ? it->get<std::string>() : it->dump());
    if (!results.contains("expectation") || !results["expectation"].is_object() ||
        results["expectation"].value("applies", true) == false)  // --nemesis replaced the faults it was stated for
        return suite;
    const auto& outcome = results["expectation"];
    std::string evidence;
    for (auto& c : suite.cases) {      // the expectation judges: each checker only reports what it found
        if (c.name == kVerdictCase) {  // why the verdict is unknown: evidence, not a failure of its own
            c.details = c.failure.value_or("");
            c.failure.reset();
            c.failure_type.clear();
            continue;
        }
        const auto& checker = *std::find_if(report.checkers.begin(), report.checkers.end(),
                                            [&](const CheckerResult& r) { return r.name == c.name; });
        const std::string listed = listed_violations(checker, max_listed);
        c.failure.reset();
        c.failure_type.clear();
        c.details = report_line(checker, listed);
        if (checker.counts_toward_verdict && !listed.empty()) evidence += checker.name + ":\n" + listed;
    }
    JUnitCase expectation{"expectation", "lockcheck." + suite_name, seconds, std::nullopt, "", ""};
    const std::string expected = "expected " + expected_words(spec) + ", got " + std::string(to_string(report.valid));
    if (outcome.value("matched", false)) {
        expectation.details = expected + ": met\n" + (evidence.empty() ? "" : "evidence:\n" + evidence);
    } else {
        std::string mismatches;
        for (const auto& m : outcome.value("mismatches", nlohmann::json::array()))
            mismatches += (mismatches.empty() ? "" : "; ") + (m.is_string() ? m.get<std::string>() : m.dump());
        expectation.failure = expected + (mismatches.empty() ? "" : ": " + mismatches);
        expectation.failure_type = "expectation";
        expectation.details = evidence;
    }
    suite.cases.insert(suite.cases.begin(), std::move(expectation));
    return suite;
}

}  // namespace lockcheck
