// The progress display of a long run: one status line, redrawn in place on a
// terminal every half second, or printed every 5 s when output is a file/pipe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace lockcheck {

class ProgressDisplay {
public:
    /// `status` builds the current line; it is called from the display's thread.
    explicit ProgressDisplay(std::function<std::string()> status);
    ~ProgressDisplay();
    /// Stops the display and ends its line.
    void stop();

private:
    std::function<std::string()> status_;
    bool tty_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace lockcheck
