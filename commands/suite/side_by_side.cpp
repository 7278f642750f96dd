#include "commands/suite/side_by_side.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace lockcheck {

void run_side_by_side(const std::vector<bool>& alone, int jobs, const std::function<void(std::size_t)>& run,
                      std::stop_token stop) {
    if (jobs <= 1) {  // one at a time: in the caller's thread, as a suite always ran
        for (std::size_t task = 0; task < alone.size() && !stop.stop_requested(); ++task) run(task);
        return;
    }
    std::mutex mutex;
    std::condition_variable_any changed;
    std::size_t next = 0;  // the next task to start
    int running = 0;       // tasks started and not yet ended
    bool alone_running = false;
    std::exception_ptr failure;  // the first exception of a task: no task starts after it

    auto worker = [&] {
        std::unique_lock lock(mutex);
        for (;;) {
            // The next task may start when there is one, no task runs alone,
            // and, if it must run alone, nothing else runs.
            changed.wait(lock, stop, [&] {
                return failure || next >= alone.size() || (!alone_running && (!alone[next] || running == 0));
            });
            if (stop.stop_requested() || failure || next >= alone.size()) return;
            const std::size_t task = next++;
            ++running;
            alone_running = alone[task];
            lock.unlock();
            std::exception_ptr thrown;
            try {
                run(task);
            } catch (...) {
                thrown = std::current_exception();
            }
            lock.lock();
            if (thrown && !failure) failure = thrown;
            --running;
            if (alone[task]) alone_running = false;
            changed.notify_all();
        }
    };
    {
        std::vector<std::jthread> threads;
        for (std::size_t i = 0; i < static_cast<std::size_t>(jobs) && i < alone.size(); ++i)
            threads.emplace_back(worker);
    }  // every thread joined
    if (failure) std::rethrow_exception(failure);
}

}  // namespace lockcheck
