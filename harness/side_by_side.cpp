#include "harness/side_by_side.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace lockcheck {

void run_side_by_side(const std::vector<bool>& alone, int jobs, const std::function<void(std::size_t)>& run,
                      std::stop_token stop) {
    std::mutex mutex;
    std::condition_variable_any changed;
    std::size_t next = 0;  // the next task to start
    int running = 0;       // tasks started and not yet ended
    bool alone_running = false;
    const auto workers = static_cast<std::size_t>(jobs < 1 ? 1 : jobs);

    auto worker = [&] {
        std::unique_lock lock(mutex);
        for (;;) {
            // The next task may start when there is one, no task runs alone,
            // and, if it must run alone, nothing else runs.
            changed.wait(lock, stop,
                         [&] { return next >= alone.size() || (!alone_running && (!alone[next] || running == 0)); });
            if (stop.stop_requested() || next >= alone.size()) return;
            const std::size_t task = next++;
            ++running;
            alone_running = alone[task];
            lock.unlock();
            run(task);
            lock.lock();
            --running;
            if (alone[task]) alone_running = false;
            changed.notify_all();
        }
    };
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < workers && i < alone.size(); ++i) threads.emplace_back(worker);
}

}  // namespace lockcheck
