#include "reports/results_json.hpp"

#include <fstream>
#include <stdexcept>

#include "core/json_text.hpp"
#include "core/regular_file.hpp"

namespace lockcheck {

nlohmann::json results_to_json(const CheckReport& report) {
    nlohmann::json checkers = nlohmann::json::object();
    for (const auto& c : report.checkers) {
        auto violations = nlohmann::json::array();
        for (std::size_t i = 0; i < c.violations.size() && i < kMaxListedViolations; ++i) {
            const auto& v = c.violations[i];
            violations.push_back(
                {{"kind", v.kind}, {"ops", v.ops}, {"description", v.description}, {"details", v.details}});
        }
        checkers[c.name] = {{"valid", validity_to_json(c.valid)},
                            {"violations", violations},
                            {"violations_total", c.violations_total()},
                            {"counts_toward_verdict", c.counts_toward_verdict},
                            {"stats", c.stats}};
    }
    nlohmann::json results{{"valid", validity_to_json(report.valid)}, {"checkers", checkers}};
    if (!report.unknown_reason.empty()) results["unknown_reason"] = report.unknown_reason;
    if (!report.exercised.empty()) results["exercised"] = report.exercised;
    if (!report.witness.is_null()) results["witness"] = report.witness;
    return results;
}

nlohmann::json read_json_or_null(const std::filesystem::path& path) {
    if (not_a_regular_file(path)) return nullptr;  // a FIFO would block, /dev/zero would never end
    std::ifstream in(path);
    if (!in) return nullptr;
    try {
        return parse_json_bounded(in);
    } catch (const JsonInputError&) {
        return nullptr;
    }
}

}  // namespace lockcheck
