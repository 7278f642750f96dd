// Choosing which worker a worker-level fault (pause-holder, kill-holder,
// slow-reply) strikes.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

namespace lockcheck {

/// How long a worker-level fault waits for a worker to strike before it gives
/// up (the fault then did not happen, and the nemesis records so).
inline constexpr auto kWaitForWorkerTarget = std::chrono::seconds(5);

/// Polls `candidates` (every 1 ms) until it names a worker, then returns one
/// of them chosen by the event's random `pick` among the distinct candidates
/// in ascending order, so that a seed replays the same choice. nullopt when
/// `stop` is requested or `give_up` passes first.
std::optional<int> wait_for_worker_target(const std::function<std::vector<int>()>& candidates, std::uint64_t pick,
                                          std::chrono::steady_clock::time_point give_up, const std::stop_token& stop);

}  // namespace lockcheck
