#include "commands/suite/detection_rate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lockcheck {

RateInterval wilson_interval(int successes, int trials, double z) {
    if (trials <= 0 || successes < 0 || successes > trials)
        throw std::invalid_argument("wilson_interval: needs 0 <= successes <= trials and trials > 0");
    const double n = trials;
    const double p = successes / n;
    const double z2 = z * z;
    const double centre = p + z2 / (2 * n);
    const double spread = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    const double scale = 1 + z2 / n;
    return {std::max(0.0, (centre - spread) / scale), std::min(1.0, (centre + spread) / scale)};
}

std::optional<double> median(std::vector<double> values) {
    if (values.empty()) return std::nullopt;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

DetectionRate detection_rate(const std::vector<RepeatedRun>& runs) {
    if (runs.empty()) throw std::invalid_argument("detection_rate: no runs");
    DetectionRate rate;
    rate.runs = static_cast<int>(runs.size());
    std::vector<double> first_violations;
    for (const auto& run : runs) {
        rate.met += run.met ? 1 : 0;
        if (run.first_violation_seconds) first_violations.push_back(*run.first_violation_seconds);
    }
    rate.violated = static_cast<int>(first_violations.size());
    rate.interval = wilson_interval(rate.met, rate.runs);
    rate.median_first_violation = median(std::move(first_violations));
    return rate;
}

}  // namespace lockcheck
