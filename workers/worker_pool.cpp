#include "workers/worker_pool.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace lockcheck {

WorkerPool::WorkerPool(int slots, Spawner spawn, LiveState& live, std::chrono::milliseconds hello_timeout,
                       Retired retired, int spawn_threads)
    : spawn_(std::move(spawn)),
      live_(live),
      hello_timeout_(hello_timeout),
      retired_(std::move(retired)),
      slots_(static_cast<std::size_t>(slots)),
      next_process_(slots) {
    spawn_first_workers(spawn_threads);
    // Every worker is starting now; its hello waits in its pipe until read.
    const auto deadline = std::chrono::steady_clock::now() + hello_timeout_;
    for (const auto& w : slots_) w->await_hello(deadline);
}

void WorkerPool::spawn_first_workers(int threads) {
    const int count = slots();
    std::atomic<int> next_slot{0};
    std::atomic<bool> failed{false};
    std::vector<std::exception_ptr> failures(slots_.size());
    const auto spawn_until_done = [&] {
        for (int slot = next_slot++; slot < count && !failed; slot = next_slot++) {
            try {
                slots_[static_cast<std::size_t>(slot)] = spawn_(slot);
            } catch (...) {
                failures[static_cast<std::size_t>(slot)] = std::current_exception();
                failed = true;
            }
        }
    };
    {
        std::vector<std::jthread> helpers;  // joined at the end of this block, or when starting one fails
        for (int i = 1; i < std::min(threads, count); ++i) helpers.emplace_back(spawn_until_done);
        spawn_until_done();
    }
    for (const auto& failure : failures)
        if (failure) std::rethrow_exception(failure);
}

std::shared_ptr<WorkerProcess> WorkerPool::worker(int slot) const {
    std::lock_guard lock(mutex_);
    return slots_.at(static_cast<std::size_t>(slot));
}

std::shared_ptr<WorkerProcess> WorkerPool::replace(int slot) {
    std::shared_ptr<WorkerProcess> old;
    int process = 0;
    {
        std::lock_guard lock(mutex_);
        old = slots_.at(static_cast<std::size_t>(slot));
        process = next_process_++;
    }
    old->kill();
    live_.forget(old->process());
    if (retired_) retired_(old->process());
    auto fresh = std::shared_ptr<WorkerProcess>(spawn_(process));
    fresh->await_hello(std::chrono::steady_clock::now() + hello_timeout_);
    spdlog::warn("worker {} replaced by worker {}", old->process(), process);
    std::lock_guard lock(mutex_);
    slots_.at(static_cast<std::size_t>(slot)) = fresh;
    return fresh;
}

void WorkerPool::stop_all() {
    std::vector<std::shared_ptr<WorkerProcess>> all;
    {
        std::lock_guard lock(mutex_);
        all = slots_;
    }
    for (auto& w : all) w->stop(std::chrono::milliseconds(1000));
}

std::shared_ptr<WorkerProcess> WorkerPool::by_process(int process) const {
    std::lock_guard lock(mutex_);
    for (const auto& w : slots_)
        if (w->process() == process) return w;
    return nullptr;
}

bool WorkerPool::pause_worker(int process) {
    auto w = by_process(process);
    if (!w) return false;
    w->pause();
    return true;
}

bool WorkerPool::kill_worker(int process) {
    auto w = by_process(process);
    if (!w) return false;
    w->kill();
    return true;
}

std::vector<int> WorkerPool::live_workers() const {
    std::lock_guard lock(mutex_);
    std::vector<int> processes;
    for (const auto& w : slots_) processes.push_back(w->process());
    return processes;
}

void WorkerPool::resume_worker(int process) {
    if (auto w = by_process(process)) w->resume();
}

}  // namespace lockcheck
