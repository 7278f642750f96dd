#include "netproxy/loop_thread.hpp"

#include <spdlog/spdlog.h>

namespace lockcheck::netproxy {

LoopThread::LoopThread() : thread_([this] { run(); }), thread_id_(thread_.get_id()) {}

LoopThread::~LoopThread() { stop(); }

void LoopThread::run() {
    try {
        loop_.run();
    } catch (const std::exception& error) {
        spdlog::error("fault proxy: its event loop failed and stopped: {}", error.what());
    }
}

void LoopThread::stop(const std::function<void()>& last) {
    if (on_loop_thread()) throw std::logic_error("LoopThread::stop() called from the loop's own thread");
    std::lock_guard lock(stop_mutex_);
    if (stopped_) return;
    stopped_ = true;
    const bool posted = loop_.post([this, &last] {
        if (last) last();
        loop_.quit();
    });
    thread_.join();
    if (!posted && last) last();  // the loop had failed: nothing else runs on it now
    loop_.close();
}

}  // namespace lockcheck::netproxy
