// Builds histories by hand for checker tests: each call appends one op with
// the next index and the given time (in ms, stored as ns).
#pragma once

#include <optional>
#include <string>

#include "core/history.hpp"

namespace lockcheck::testing {

class HistoryBuilder {
public:
    /// Appends an op; returns its index.
    std::int64_t add(double time_ms, int process, OpType type, std::string f, std::string key = "lock");

    // Lock ops on key "lock" (owner "p<process>-<n>" with n counted per acquire).
    std::int64_t acquire_invoke(double t, int process, std::int64_t ttl_ms = 1000);
    std::int64_t acquire_done(double t, int process, OpType type, std::optional<std::int64_t> token = {});
    std::int64_t release_invoke(double t, int process);
    std::int64_t release_done(double t, int process, OpType type);
    /// A release invoked at `t0` and answered `type` at `t1`.
    void release(double t0, double t1, int process, OpType type = OpType::Ok);

    // Resource accesses on key "lock".
    std::int64_t read(double t_invoke, double t_done, int process, std::int64_t value,
                      std::optional<std::int64_t> token = {}, OpType type = OpType::Ok);
    std::int64_t write(double t_invoke, double t_done, int process, std::int64_t value,
                       std::optional<std::int64_t> token = {}, OpType type = OpType::Ok);

    /// One complete session: acquire [t0, t1], release [t2, t3].
    void session(int process, double t0, double t1, double t2, double t3, std::int64_t ttl_ms = 1000);

    /// The nemesis's kill-holder fault killing worker `process`: its invoke
    /// and its completion (which names the worker), both at time `t`.
    void kill_holder(double t, int process);

    /// A renew of the process's latest owner, invoked at `t0` (asking for
    /// `ttl_ms`) and answered `type` at `t1` (no answer when `type` is Invoke).
    void renew(double t0, double t1, int process, OpType type, std::int64_t ttl_ms = 1000);
    /// The two halves of renew(), for a renew with other ops between them.
    void renew_invoke(double t, int process, std::int64_t ttl_ms = 1000);
    void renew_done(double t, int process, OpType type);

    /// A slow-reply fault as the nemesis records it: its start (invoke and
    /// completion at `t`, naming worker `process` and `delay_ms`), with fault id `id`.
    void slow_reply(double t, int process, std::int64_t delay_ms, int id = 1);
    /// A pause fault (`fault`: pause-holder or pause-client) as the nemesis
    /// records it: its start at `t`, stopping worker `process`, with fault id `id`.
    void pause(double t, int process, int id = 1, const std::string& fault = "pause-client");
    /// The stop-fault invoke and completion of fault `id`, at `t`.
    void stop_fault(double t, int id = 1);

    History& history() { return history_; }

private:
    History history_;
    int acquires_ = 0;
    std::string owner_of(int process) const;
};

}  // namespace lockcheck::testing
