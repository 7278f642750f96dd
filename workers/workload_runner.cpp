#include "workers/workload_runner.hpp"

#include <spdlog/spdlog.h>

#include "workers/workload_registry.hpp"

namespace lockcheck {

WorkloadRunner::WorkloadRunner(WorkloadOptions options, WorkerPool& pool, HistoryRecorder& recorder,
                               ProtectedResource& resource, LiveState& live)
    : options_(std::move(options)),
      pool_(pool),
      recorder_(recorder),
      workload_(workload_for(options_.capabilities)),
      context_{options_, recorder, resource, live} {}

void WorkloadRunner::run_slot(int slot, const std::stop_token& stop) {
    try {
        SlotSession session(slot, pool_, recorder_, options_.op_timeout, next_request_id_, options_.capabilities,
                            {options_.interrupt, stop, options_.stop_grace});
        workload_.run_slot(session, context_, slot, stop);
    } catch (const std::exception& e) {
        spdlog::error("worker slot {} stopped: {}", slot, e.what());
        std::lock_guard lock(failure_mutex_);
        if (first_failure_.empty()) first_failure_ = e.what();
        ++slots_failed_;
    }
    ++slots_stopped_;
}

std::string WorkloadRunner::first_failure() const {
    std::lock_guard lock(failure_mutex_);
    return first_failure_;
}

}  // namespace lockcheck
