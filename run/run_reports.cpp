#include "run/run_reports.hpp"

#include <cstdio>

#include "core/atomic_file.hpp"
#include "reports/html_report.hpp"
#include "reports/junit_xml.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {

void write_run_reports(const std::filesystem::path& dir, const History& history, const CheckReport& report,
                       const nlohmann::json& results, const nlohmann::json& spec) {
    try {
        write_report_html(dir / "report.html",
                          {history, report, results, spec, {}, dir, read_json_or_null(dir / "nemesis-schedule.json")});
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lockcheck: warning: report.html not written: %s\n", e.what());
    }
    try {
        const std::string name = spec.is_object() && spec.contains("name") && spec["name"].is_string()
                                     ? spec["name"].get<std::string>()
                                     : dir.filename().string();
        write_text_file(dir / "junit.xml", junit_xml({junit_for_run(name, report, results, spec)}));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lockcheck: warning: junit.xml not written: %s\n", e.what());
    }
}

}  // namespace lockcheck
