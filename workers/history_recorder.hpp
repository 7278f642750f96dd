// The history recorder: gives every op its index and its time on the one
// controller clock, applies an op's effect at that same instant, and appends
// the op to history.jsonl (flushed per record). Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>

#include "core/history_io.hpp"

namespace lockcheck {

class HistoryRecorder {
public:
    /// Sees every op as recorded, in index order, under the recorder's lock (keep it short).
    using Observer = std::function<void(const Op&)>;

    HistoryRecorder(const std::filesystem::path& path, std::chrono::steady_clock::time_point start,
                    std::int64_t max_ops, Observer observer = {});

    /// Records `op`. When `effect` is given it runs under the recorder's lock
    /// after the time is taken and may fill in the op (type, value, error), so
    /// an access to the protected resource happens exactly at its op's time and
    /// in its op's index order. Returns the op as recorded.
    Op record(Op op, const std::function<void(Op&)>& effect = {});

    std::int64_t count() const { return count_; }
    /// True once max_ops ops have been recorded; callers stop invoking then.
    bool full() const { return count_ >= max_ops_; }
    /// ns since the run started, on the controller clock.
    std::int64_t now_ns() const;

private:
    HistoryWriter writer_;
    std::chrono::steady_clock::time_point start_;
    std::int64_t max_ops_;
    Observer observer_;
    std::mutex mutex_;
    std::atomic<std::int64_t> count_{0};
};

}  // namespace lockcheck
