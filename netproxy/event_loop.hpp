// An epoll event loop for one thread: sockets registered edge-triggered,
// wake-ups at chosen times (epoll_pwait2's nanosecond timeout, no timer fd),
// tasks posted from other threads (an eventfd wakes the loop), and tasks
// deferred until the current handler has returned. Idle, it sleeps in
// epoll_pwait2: no busy loop.
//
// Everything but post() belongs to the loop's thread: the thread that calls
// run(), or any thread once run() has returned.
#pragma once

#include <sys/epoll.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "netproxy/release_schedule.hpp"
#include "netproxy/unique_fd.hpp"

namespace lockcheck::netproxy {

class EventLoop {
public:
    using Key = std::uint64_t;
    /// Called with epoll's events for the socket, or with 0 for a wake_at().
    using Handler = std::function<void(std::uint32_t events)>;

    /// Throws std::system_error when epoll or the eventfd cannot be made.
    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    /// Registers `fd` for `events` (EPOLLET is added). The key names it in
    /// remove() and wake_at(); keys are never reused.
    Key add(int fd, std::uint32_t events, Handler handler);
    /// Unregisters (while the fd is still open). Safe inside the key's own
    /// handler: the handler is destroyed after the current iteration.
    void remove(Key key);
    /// Calls the key's handler with 0 at `when` (or soon after). A later
    /// request for the same key is dropped while an earlier one is pending.
    void wake_at(Key key, Clock::time_point when);
    /// Runs `task` once the current handler has returned.
    void defer(std::function<void()> task);

    /// Runs until quit(); then refuses posts and drops the tasks not run
    /// (their owners see them destroyed). Throws std::system_error when
    /// epoll fails.
    void run();
    void quit() { quit_ = true; }
    /// Drops the registrations and the tasks not run, and closes the epoll fd
    /// and the eventfd; after run() has returned.
    void close();

    /// Any thread: queues `task` for the loop's thread; false once run() has
    /// returned (the task is destroyed without running).
    bool post(std::function<void()> task);

private:
    struct Registration {
        int fd;
        Handler handler;
        std::optional<Clock::time_point> wake_at;
    };
    using Wake = std::pair<Clock::time_point, Key>;

    void run_posted();
    void run_due_wakes();
    void run_deferred();
    /// epoll_pwait2's timeout: until the earliest pending wake; nullopt: none.
    std::optional<Clock::duration> time_to_next_wake();

    UniqueFd epoll_;
    UniqueFd wakeup_;  ///< eventfd written by post()
    Key next_key_ = 1;
    std::unordered_map<Key, Registration> registrations_;
    std::vector<std::unordered_map<Key, Registration>::node_type> removed_;
    std::priority_queue<Wake, std::vector<Wake>, std::greater<>> wakes_;
    std::vector<std::function<void()>> deferred_;
    bool quit_ = false;

    std::mutex posted_mutex_;
    std::deque<std::function<void()>> posted_;
    bool accepting_posts_ = true;
};

}  // namespace lockcheck::netproxy
