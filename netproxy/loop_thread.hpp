// An EventLoop on a thread of its own, and synchronous calls into it: call(f)
// runs f on the loop's thread between two events and returns its result, so
// whatever f changes takes effect at once and all together.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "netproxy/event_loop.hpp"

namespace lockcheck::netproxy {

/// Thrown by calls into a proxy that has stopped (or whose loop failed).
class ProxyStopped : public std::runtime_error {
public:
    ProxyStopped() : std::runtime_error("the fault proxy is stopped") {}
};

class LoopThread {
public:
    /// Starts the thread. Throws std::system_error when it cannot.
    LoopThread();
    /// stop().
    ~LoopThread();
    LoopThread(const LoopThread&) = delete;
    LoopThread& operator=(const LoopThread&) = delete;

    /// Runs `f` on the loop's thread and returns its result, or rethrows its
    /// exception; on the loop's thread itself, runs it at once. Throws
    /// ProxyStopped once the loop has ended. Any thread.
    template <class F>
    std::invoke_result_t<F> call(F&& f) const;

    /// Runs `last` on the loop's thread (or here, if the loop has ended
    /// already), ends the loop, joins the thread and closes the loop's
    /// descriptors. Idempotent. Not from the loop's thread (std::logic_error).
    void stop(const std::function<void()>& last = {});

    bool on_loop_thread() const { return std::this_thread::get_id() == thread_id_; }
    /// The loop, for code running on its thread.
    EventLoop& loop() { return loop_; }

private:
    void run();

    mutable EventLoop loop_;
    std::thread thread_;
    std::thread::id thread_id_;
    std::mutex stop_mutex_;
    bool stopped_ = false;
};

template <class F>
std::invoke_result_t<F> LoopThread::call(F&& f) const {
    using Result = std::invoke_result_t<F>;
    if (on_loop_thread()) return std::forward<F>(f)();
    auto task = std::make_shared<std::packaged_task<Result()>>(std::forward<F>(f));
    auto result = task->get_future();
    // The loop owns the task from here: if it ends without running it, the
    // task is destroyed and the future reports a broken promise.
    if (!loop_.post([task = std::move(task)] { (*task)(); })) throw ProxyStopped();
    try {
        return result.get();
    } catch (const std::future_error&) {
        throw ProxyStopped();
    }
}

}  // namespace lockcheck::netproxy
