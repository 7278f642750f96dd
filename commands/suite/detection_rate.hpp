// The detection rate of a scenario run N times (`lockcheck suite --repeat N`):
// how often its expectation was met, a 95% confidence interval for that rate
// (Wilson's score interval, which stays inside [0, 1] and is sound for small N
// and for rates of 0 or 1), and the median time to the first violation.
#pragma once

#include <optional>
#include <vector>

namespace lockcheck {

struct RateInterval {
    double low = 0;
    double high = 1;
};

/// z of a two-sided 95% interval of the normal distribution.
inline constexpr double kZ95 = 1.959963984540054;

/// Wilson's score interval for `successes` out of `trials` at `z`:
/// (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), p = successes/n.
/// Throws std::invalid_argument unless 0 <= successes <= trials and trials > 0.
RateInterval wilson_interval(int successes, int trials, double z = kZ95);

/// The median of `values` (the mean of the middle two for an even count); nullopt when empty.
std::optional<double> median(std::vector<double> values);

/// One run of a repeated scenario.
struct RepeatedRun {
    bool met = false;                               ///< the run met the scenario's expectation
    std::optional<double> first_violation_seconds;  ///< when its history first became invalid; none if never
};

struct DetectionRate {
    int runs = 0;
    int met = 0;
    RateInterval interval;                         ///< 95% Wilson interval of met / runs
    int violated = 0;                              ///< runs whose history became invalid
    std::optional<double> median_first_violation;  ///< seconds, over the `violated` runs; none if none
};

/// The rate of `runs` (at least one; std::invalid_argument otherwise).
DetectionRate detection_rate(const std::vector<RepeatedRun>& runs);

}  // namespace lockcheck
