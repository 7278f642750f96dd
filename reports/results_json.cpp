#include "reports/results_json.hpp"

#include <fstream>
#include <stdexcept>

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
                            {"violations_total", c.violations.size()},
                            {"counts_toward_verdict", c.counts_toward_verdict},
                            {"stats", c.stats}};
    }
    return {{"valid", validity_to_json(report.valid)}, {"checkers", checkers}};
}

nlohmann::json read_json_or_null(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) return nullptr;
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception&) {  // parse_error, and out_of_range for numbers too large
        return nullptr;
    }
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& json) {
    const auto temporary = path.string() + ".tmp";
    {
        std::ofstream out(temporary);
        out << json.dump(2) << "\n";
        if (!out) throw std::runtime_error("cannot write " + temporary);
    }
    std::filesystem::rename(temporary, path);
}

}  // namespace lockcheck
