// What the controller knows while a run goes on: who holds which lock by the
// history's account (acquire ok until release invoke), and how many overlaps
// that has shown so far (a live estimate; the checkers give the verdict), and
// whose acquire is in flight since when (a two-step acquire may be half done),
// and whose renew has been sent and not yet answered. Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace lockcheck {

class LiveState {
public:
    /// `process` got an ok for acquiring `key`; counts an overlap for every other holder.
    void acquired(int process, const std::string& key);
    /// `process` invokes the release of `key` (its critical section ends here).
    void releasing(int process, const std::string& key);
    /// `process` is gone (replaced); it holds nothing any more in our account.
    void forget(int process);
    /// `process` sends an acquire of `key` / got its completion, whatever it was.
    void acquiring(int process, const std::string& key);
    void acquire_done(int process);
    /// `process` sends a renew / got its answer, whatever it was.
    void renewing(int process);
    void renew_done(int process);

    std::vector<int> holders() const;
    /// Holders whose acquire ok was recorded at or after `since` (a fresh grant).
    std::vector<int> granted_since(std::chrono::steady_clock::time_point since) const;
    /// Processes whose acquire has been in flight for at least `at_least`.
    std::vector<int> acquiring_for(std::chrono::milliseconds at_least) const;
    /// Processes whose renew has been sent and not yet answered.
    std::vector<int> renewing() const;
    /// How many renews have been sent in this run so far.
    std::int64_t renews_sent() const;
    std::int64_t overlaps() const;

private:
    mutable std::mutex mutex_;
    struct Holding {
        int process = 0;
        std::chrono::steady_clock::time_point granted;
    };
    std::multimap<std::string, Holding> holders_;                     // key -> holder
    std::map<int, std::chrono::steady_clock::time_point> acquiring_;  // process -> since
    std::set<int> renewing_;
    std::int64_t renews_sent_ = 0;
    std::int64_t overlaps_ = 0;
};

}  // namespace lockcheck
