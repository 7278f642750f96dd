#include "run/checked_history.hpp"

#include <cstdio>

#include "core/atomic_file.hpp"
#include "run/run_reports.hpp"
#include "reports/results_json.hpp"
#include "reports/terminal_summary.hpp"

namespace lockcheck {

CheckedHistory check_history(const History& history, const CheckContext& context) {
    CheckedHistory checked;
    checked.report = run_checkers(history, RunClaims{faults_asked_by(context.spec)});
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
