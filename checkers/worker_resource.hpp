// Lost updates on a resource the workers own (capability "resource"): the
// read and write happen in the database, inside the lock's own transaction,
// and the worker reports the values. Ops carry resource "worker"
// (resource_owner::kWorker).
//
// The history's completion order is then NOT the order in which the database
// applied the writes (two workers' replies race to the controller), so the
// replay of checkers/resource.cpp would report false lost updates. This check
// uses values instead: every write writes the value its writer read plus one,
// and without a lost update the committed values of a key are 1, 2, 3, ...
// each exactly once. Two writes of the same value that both completed ok
// therefore prove that two holders read the same value and both committed:
// one update was lost - whatever order the replies came in. Writes that
// completed info (the commit's outcome unknown) prove nothing and are counted.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checkers/checker_result.hpp"
#include "core/history.hpp"

namespace lockcheck {

/// Whether an access (its invoke or completion) was performed by the worker.
bool worker_owned(const Op& invoke, const Op& completion);

class WorkerResourceCheck {
public:
    /// Feeds one completion of a worker-owned read or write.
    void add(const Op& completion);
    /// Appends the lost-update findings (kind "lost-update") to `violations`.
    void finish(std::vector<Violation>& violations) const;

    std::size_t reads() const { return reads_; }
    std::size_t writes() const { return writes_; }
    std::size_t indeterminate_writes() const { return indeterminate_; }
    std::size_t lost() const;

private:
    /// key -> value -> history indices of the ok writes of that value, in history order.
    std::map<std::string, std::map<std::int64_t, std::vector<std::int64_t>>> committed_;
    std::map<std::int64_t, int> process_of_;  ///< history index of an ok write -> its process
    std::size_t reads_ = 0, writes_ = 0, indeterminate_ = 0;
};

}  // namespace lockcheck
