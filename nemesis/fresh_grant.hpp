// The "after a fresh grant" trigger: wait for a grant recorded after the wait
// began, then strike a set time after it if that worker still holds. Used by
// power-loss's option power_loss_after_grant_ms and by any event of an
// explicit schedule with after_grant_ms (nemesis/nemesis.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <stop_token>

#include "nemesis/fault.hpp"

namespace lockcheck {

/// How long one trigger waits for a fresh grant (the run's end stops the wait
/// sooner); without one the fault strikes nothing.
inline constexpr auto kWaitForFreshGrant = std::chrono::seconds(60);
/// The most ms a trigger strikes after the grant: a strike later than that is
/// no longer "right after" the grant.
inline constexpr std::int64_t kMaxAfterGrantMs = 60'000;

/// Waits for a grant to one of `workers` recorded after the call began (the
/// worker chosen by `pick` among several), then `after_ms` more; returns that
/// worker if it still holds, else waits for the next grant. nullopt when none
/// came within kWaitForFreshGrant or `stop` was requested.
std::optional<int> await_fresh_grant(const WorkerControl& workers, std::uint64_t pick, std::int64_t after_ms,
                                     const std::stop_token& stop);

}  // namespace lockcheck
