// A time in milliseconds, or a multiple of a run's lease: the JSON form
// "2xttl" (spec fields of faults, e.g. restart_delay_ms, clock_skew_ms).
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// The longest lease: 1 hour (a spec's ttl_ms, spec_bounds::kMaxDurationMs;
/// a history with a longer ttl_ms is refused, since its times would overflow).
inline constexpr std::int64_t kMaxTtlMs = 3'600'000;

/// The largest N of "Nxttl": N x a lease of at most 1 hour stays a time a
/// run can wait for without overflowing.
inline constexpr double kMaxTtlFactor = 1000;

struct TtlTime {
    std::int64_t ms = 0;
    std::optional<double> ttl_factor;  ///< set for "Nxttl"

    /// The time in ms for a run whose lease is `ttl_ms`.
    std::int64_t resolve(std::int64_t ttl_ms) const;
    /// Its JSON form: the integer ms, or "Nxttl".
    nlohmann::json to_json() const;
};

/// `value` read as a TtlTime: an integer of ms (>= 0, or any when
/// `negative_ms` is set) or a string "Nxttl" with N plain decimal digits
/// ("2", "1.5"; "-2" too when `negative_ms` is set: no '+', blank, hex or
/// exponent). nullopt when it is neither.
std::optional<TtlTime> ttl_time_from_json(const nlohmann::json& value, bool negative_ms);

}  // namespace lockcheck
