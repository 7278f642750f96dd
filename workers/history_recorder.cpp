#include "workers/history_recorder.hpp"

namespace lockcheck {

HistoryRecorder::HistoryRecorder(const std::filesystem::path& path, std::chrono::steady_clock::time_point start,
                                 std::int64_t max_ops, Observer observer)
    : writer_(path), start_(start), max_ops_(max_ops), observer_(std::move(observer)) {}

std::int64_t HistoryRecorder::now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
}

Op HistoryRecorder::record(Op op, const std::function<void(Op&)>& effect) {
    std::lock_guard lock(mutex_);
    op.index = count_;
    op.time = now_ns();
    if (effect) effect(op);
    writer_.write(op);
    if (observer_) observer_(op);
    ++count_;
    return op;
}

}  // namespace lockcheck
