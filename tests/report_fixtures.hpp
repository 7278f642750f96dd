// Histories for the report tests (model, page, JUnit, browser).
#pragma once

#include "core/history.hpp"

namespace lockcheck::testing {

/// Worker 0 takes 'lock' (lease 1000 ms) at 1 ms and is paused by fault #1
/// (pause-holder on worker 0, 100 ms to 2600 ms); worker 1 is refused twice,
/// then acquires at 1201 ms while worker 0 still holds it, and releases at
/// 1400 ms; worker 0 releases at 2700 ms. One overlap-lease-expired.
History paused_holder_history();

/// `sessions` back-to-back sessions of 3 workers on 'lock', each preceded by
/// one busy attempt of another worker: 6 ops per session, no violation.
History long_valid_history(int sessions);

}  // namespace lockcheck::testing
