#include "run/interrupts.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <ctime>

namespace lockcheck {
namespace {

sigset_t watched_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    return set;
}

}  // namespace

InterruptWatcher::InterruptWatcher() {
    const sigset_t set = watched_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    thread_ = std::thread([this, set] {
        const timespec tick{0, 100'000'000};
        while (!done_) {
            const int sig = sigtimedwait(&set, nullptr, &tick);
            if (sig <= 0) continue;
            if (!interrupted_.stop_requested()) {
                signal_ = sig;
                interrupted_.request_stop();
                const char* note =
                    "\nlockcheck: interrupted; healing faults and cleaning up (this takes a few seconds)\n";
                (void)!::write(STDERR_FILENO, note, std::strlen(note));
            }
        }
    });
}

InterruptWatcher::~InterruptWatcher() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
}

}  // namespace lockcheck
