#include "run/checked_history.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "checkers/server_record.hpp"
#include "clusters/topologies/server_record.hpp"

#include "core/atomic_file.hpp"
#include "run/run_reports.hpp"
#include "reports/results_json.hpp"
#include "reports/terminal_summary.hpp"

namespace lockcheck {
namespace {

/// The servers' own record in the run directory (server-record.jsonl), when the run wrote one.
std::optional<ServerRecord> stored_server_record(const std::optional<std::filesystem::path>& run_dir) {
    if (!run_dir) return std::nullopt;
    const auto path = *run_dir / kServerRecordFile;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return parse_server_record(text.str());
}

}  // namespace

CheckedHistory check_history(const History& history, const CheckContext& context) {
    CheckedHistory checked;
    const auto server_record = stored_server_record(context.run_dir);
    checked.report =
        run_checkers(history, RunClaims{faults_asked_by(context.spec)}, server_record ? &*server_record : nullptr);
    checked.results = results_to_json(checked.report);
    if (!context.run.is_null()) checked.results["run"] = context.run;
    if (context.expect) {
        checked.expectation = evaluate(*context.expect, checked.report);
        checked.results["expectation"] = outcome_to_json(*checked.expectation);
    } else if (context.expectation_not_applicable) {
        checked.results["expectation"] = {{"applies", false}, {"reason", *context.expectation_not_applicable}};
    }
    if (context.run_dir) {
        write_json_file(*context.run_dir / "results.json", checked.results);
        write_run_reports(*context.run_dir, history, checked.report, checked.results, context.spec);
    }
    std::printf("%s", terminal_summary(checked.report).c_str());
    return checked;
}

}  // namespace lockcheck
