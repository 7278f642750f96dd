#include "netproxy/event_loop.hpp"

#include <sys/eventfd.h>

#include <array>
#include <cerrno>
#include <ctime>
#include <system_error>

namespace lockcheck::netproxy {

namespace {
/// The eventfd's key: never handed out by add().
constexpr EventLoop::Key kWakeupKey = 0;
constexpr int kMaxEvents = 128;

[[noreturn]] void throw_errno(const char* what) { throw std::system_error(errno, std::generic_category(), what); }
}  // namespace

EventLoop::EventLoop() : epoll_(::epoll_create1(EPOLL_CLOEXEC)), wakeup_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
    if (!epoll_.valid()) throw_errno("epoll_create1");
    if (!wakeup_.valid()) throw_errno("eventfd");
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = kWakeupKey;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, wakeup_.get(), &event) != 0) throw_errno("epoll_ctl eventfd");
}

EventLoop::~EventLoop() = default;

EventLoop::Key EventLoop::add(int fd, std::uint32_t events, Handler handler) {
    const Key key = next_key_++;
    epoll_event event{};
    event.events = events | EPOLLET;
    event.data.u64 = key;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) != 0) throw_errno("epoll_ctl add");
    registrations_.emplace(key, Registration{fd, std::move(handler), std::nullopt});
    return key;
}

void EventLoop::remove(Key key) {
    auto node = registrations_.extract(key);
    if (node.empty()) return;
    if (epoll_.valid()) ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, node.mapped().fd, nullptr);
    removed_.push_back(std::move(node));
}

void EventLoop::wake_at(Key key, Clock::time_point when) {
    const auto found = registrations_.find(key);
    if (found == registrations_.end()) return;
    auto& pending = found->second.wake_at;
    if (pending && *pending <= when) return;
    pending = when;
    wakes_.emplace(when, key);
}

void EventLoop::defer(std::function<void()> task) { deferred_.push_back(std::move(task)); }

bool EventLoop::post(std::function<void()> task) {
    // The eventfd is written under the lock: once run() has returned and
    // refused posts, close() may close it.
    std::lock_guard lock(posted_mutex_);
    if (!accepting_posts_) return false;
    const bool was_empty = posted_.empty();
    posted_.push_back(std::move(task));
    if (was_empty) {
        const std::uint64_t one = 1;
        // Cannot fail: the counter is read back before it could overflow.
        [[maybe_unused]] const auto written = ::write(wakeup_.get(), &one, sizeof one);
    }
    return true;
}

void EventLoop::run_posted() {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto read = ::read(wakeup_.get(), &count, sizeof count);
    std::deque<std::function<void()>> tasks;
    {
        std::lock_guard lock(posted_mutex_);
        tasks.swap(posted_);
    }
    for (auto& task : tasks) {
        if (quit_) break;  // the rest are destroyed unrun: their callers see the loop gone
        task();
        run_deferred();
    }
}

std::optional<Clock::duration> EventLoop::time_to_next_wake() {
    while (!wakes_.empty()) {
        const auto [when, key] = wakes_.top();
        const auto found = registrations_.find(key);
        if (found != registrations_.end() && found->second.wake_at == when) {
            return std::max(Clock::duration::zero(), when - Clock::now());
        }
        wakes_.pop();  // superseded or unregistered
    }
    return std::nullopt;
}

void EventLoop::run_due_wakes() {
    const auto now = Clock::now();
    while (!wakes_.empty() && wakes_.top().first <= now) {
        const auto [when, key] = wakes_.top();
        wakes_.pop();
        const auto found = registrations_.find(key);
        if (found == registrations_.end() || found->second.wake_at != when) continue;
        found->second.wake_at.reset();
        found->second.handler(0);
        run_deferred();
    }
}

void EventLoop::run_deferred() {
    while (!deferred_.empty()) {
        auto tasks = std::move(deferred_);
        deferred_.clear();
        for (auto& task : tasks) task();
    }
}

void EventLoop::run() {
    std::array<epoll_event, kMaxEvents> events{};
    try {
        while (!quit_) {
            const auto timeout = time_to_next_wake();
            timespec timeout_spec{};
            if (timeout) {
                const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(*timeout).count();
                timeout_spec.tv_sec = static_cast<time_t>(nanoseconds / 1'000'000'000);
                timeout_spec.tv_nsec = static_cast<long>(nanoseconds % 1'000'000'000);
            }
            const int count =
                ::epoll_pwait2(epoll_.get(), events.data(), kMaxEvents, timeout ? &timeout_spec : nullptr, nullptr);
            if (count < 0 && errno != EINTR) throw_errno("epoll_pwait2");
            for (int i = 0; i < count; ++i) {
                const Key key = events[static_cast<std::size_t>(i)].data.u64;
                if (key == kWakeupKey) {
                    run_posted();
                    continue;
                }
                const auto found = registrations_.find(key);
                if (found == registrations_.end()) continue;  // removed earlier in this batch
                found->second.handler(events[static_cast<std::size_t>(i)].events);
                run_deferred();
            }
            run_due_wakes();
            removed_.clear();
        }
    } catch (...) {
        std::lock_guard lock(posted_mutex_);
        accepting_posts_ = false;
        posted_.clear();
        throw;
    }
    std::deque<std::function<void()>> dropped;
    std::lock_guard lock(posted_mutex_);
    accepting_posts_ = false;
    dropped.swap(posted_);
}

void EventLoop::close() {
    deferred_.clear();
    wakes_ = {};
    registrations_.clear();
    removed_.clear();
    epoll_.reset();
    wakeup_.reset();
}

}  // namespace lockcheck::netproxy
