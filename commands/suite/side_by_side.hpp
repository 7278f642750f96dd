// `lockcheck suite --jobs N`: runs tasks (a suite's scenarios) on up to N
// threads at once, a task marked alone with no other beside it (a scenario
// labelled `alone`, sensitive to CPU contention: docs/spec.md, "labels").
// Tasks are taken in index order; whoever collects the results puts them back
// in that order, so the output does not depend on which one finished first.
#pragma once

#include <cstddef>
#include <functional>
#include <stop_token>
#include <vector>

namespace lockcheck {

/// Calls run(i) for every i in [0, alone.size()), taken in order of i, on up to
/// `jobs` (at least 1) threads at once. A task with alone[i] set waits until
/// every task before it has ended and runs by itself; the tasks after it
/// start once it has ended. Once `stop` is requested no further task starts;
/// those running are waited for. With one job every task runs in the
/// calling thread; with more, in threads of their own. When run throws, no
/// further task starts, and the first exception is rethrown here once the
/// running tasks have ended.
void run_side_by_side(const std::vector<bool>& alone, int jobs, const std::function<void(std::size_t)>& run,
                      std::stop_token stop);

}  // namespace lockcheck
