// Histories for the report tests (model, page, JUnit, browser).
#pragma once

#include <nlohmann/json.hpp>

#include "core/history.hpp"

namespace lockcheck::testing {

/// Worker 0 takes 'lock' (lease 1000 ms) at 1 ms and is paused by fault #1
/// (pause-holder on worker 0, 100 ms to 2600 ms); worker 1 is refused twice,
/// then acquires at 1201 ms while worker 0 still holds it, and releases at
/// 1400 ms; worker 0 releases at 2700 ms. One overlap-lease-expired.
History paused_holder_history();

/// A run with one of everything the report draws. Worker 0 takes 'lock'
/// (token 1, lease 1000 ms) at 1 ms, reads the register, and invokes a write
/// at 90 ms that completes at 2610 ms: fault #1 (pause-holder on worker 0)
/// is in effect from 101 ms to 2601 ms. Worker 1 is refused, acquires at
/// 1201 ms (token 2), reads, writes at 1221 ms and releases at 1401 ms: one
/// overlap-lease-expired, then worker 0's write is a lost update and a stale
/// write. Fault #2 (failover on n1) is asked for at 3000 ms and takes effect
/// at 5000 ms (the wait), healed at 6001 ms; fault #3 is asked for at
/// 6100 ms and fails ("no target"). Worker 2 makes ~1200 quick acquire
/// attempts between 3000 and 8000 ms (refused, and every 10th failed), and
/// holds the lock 7001–7501 ms; refused while nobody held the lock (worker 0's
/// release failed), they are a stuck-lock finding too.
History showcase_history();
/// The schedule behind showcase_history(): faults #1–#3, and #4 (due at
/// 7200 ms) that the history never started.
nlohmann::json showcase_schedule();

/// Worker 0 holds 'lock' (lease 1000 ms) from 1 ms to 9001 ms; worker 1
/// acquires it at 2011 ms and holds it to 8101 ms: one long overlap. In the
/// meantime `faults` (at most 47) kill-restart faults (#1...) of 100 ms
/// each, one every 150 ms from 1000 ms, on nodes n1..n5 in turn.
History many_faults_history(int faults);

/// `workers` workers (at least 5) take 'lock' in turn, one session each, 10 ms
/// apart, then 'spare' the same way; then worker 4 is granted 'lock' while
/// worker 3 holds it: one overlap. 2 x `workers` lanes in all.
History crowded_history(int workers);

/// `sessions` back-to-back sessions of 3 workers on 'lock', each preceded by
/// one busy attempt of another worker: 6 ops per session, no violation.
History long_valid_history(int sessions);

}  // namespace lockcheck::testing
