#include "checkers/run_checkers.hpp"

#include "checkers/linearizability.hpp"
#include "checkers/liveness.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/resource.hpp"

namespace lockcheck {

CheckReport run_checkers(const History& history) {
    const auto partner = pair_ops(history);
    CheckReport report;
    report.checkers.push_back(check_mutual_exclusion(history, partner));
    report.checkers.push_back(check_resource(history, partner));
    report.checkers.push_back(check_linearizability(history, partner));
    report.checkers.push_back(check_liveness(history, partner));
    for (const auto& c : report.checkers) report.valid = combine(report.valid, c.valid);
    return report;
}

}  // namespace lockcheck
