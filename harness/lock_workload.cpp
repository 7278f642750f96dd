#include "harness/lock_workload.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>
#include <thread>

namespace lockcheck {
namespace {

/// One slot's view while it runs: its current worker and how to talk to it.
class SlotSession {
public:
    SlotSession(int slot, WorkerPool& pool, HistoryRecorder& recorder, std::chrono::milliseconds timeout,
                std::atomic<std::int64_t>& ids, const std::vector<std::string>& capabilities)
        : slot_(slot), pool_(pool), recorder_(recorder), timeout_(timeout), ids_(ids), capabilities_(capabilities),
          worker_(pool.worker(slot)) {}

    int process() const { return worker_->process(); }
    /// Whether the workers have capability `what` ("renew", "reentrant").
    bool supports(std::string_view what) const {
        return std::find(capabilities_.begin(), capabilities_.end(), what) != capabilities_.end();
    }

    /// Records `invoke`, sends it, records the completion. `apply` (resource
    /// ops) runs at the completion's instant when the worker answered ok.
    Op perform(Op invoke, const std::function<void(Op&)>& apply = {}) {
        invoke.process = process();
        invoke.type = OpType::Invoke;
        const Op recorded = recorder_.record(invoke);
        WorkerRequest request{ids_++, invoke.f, invoke.key, invoke.owner, invoke.ttl_ms, invoke.value};
        auto result = worker_->call(request, timeout_);

        Op done = invoke;
        done.value = nullptr;
        done.ttl_ms.reset();
        if (!result.reply) {
            const bool lock_op = invoke.f != fn::kRead && invoke.f != fn::kWrite;
            done.type = lock_op ? OpType::Info : OpType::Fail;
            done.error = result.failure;
            Op completion = recorder_.record(done);
            spdlog::warn("worker {}: op {} ({}) got no reply: {}", process(), recorded.index, invoke.f, result.failure);
            worker_ = pool_.replace(slot_);
            return completion;
        }
        done.type = result.reply->type;
        done.error = result.reply->error;
        if (result.reply->token) done.token = result.reply->token;
        if (!result.reply->value.is_null()) done.value = result.reply->value;
        if (done.type == OpType::Ok && apply) return recorder_.record(done, apply);
        return recorder_.record(done);
    }

private:
    int slot_;
    WorkerPool& pool_;
    HistoryRecorder& recorder_;
    std::chrono::milliseconds timeout_;
    std::atomic<std::int64_t>& ids_;
    const std::vector<std::string>& capabilities_;
    std::shared_ptr<WorkerProcess> worker_;
};

Op lock_op(std::string_view f, const std::string& key, const std::string& owner) {
    Op op;
    op.f = std::string(f);
    op.key = key;
    op.owner = owner;
    return op;
}

Op lease_op(std::string_view f, const std::string& key, const std::string& owner, std::int64_t ttl_ms) {
    Op op = lock_op(f, key, owner);
    op.ttl_ms = ttl_ms;
    return op;
}

/// An acquire asking for a lease of `ttl_ms`; without one (ttl_ms not
/// recorded) when the worker's locks have no lease ("no-lease").
Op acquire_op(const SlotSession& session, const std::string& key, const std::string& owner, std::int64_t ttl_ms) {
    return session.supports("no-lease") ? lock_op(fn::kAcquire, key, owner) : lease_op(fn::kAcquire, key, owner, ttl_ms);
}

/// Holds for `duration`. When the worker supports "renew" (a watchdog), sends
/// a renew through it every ttl/3 while holding, until one does not succeed:
/// the renewal runs in the worker process, so a paused worker renews nothing.
void hold(SlotSession& session, const std::string& key, const std::string& owner, std::int64_t ttl_ms,
          std::chrono::milliseconds duration) {
    if (!session.supports("renew")) {
        std::this_thread::sleep_for(duration);
        return;
    }
    const int process = session.process();
    const auto until = std::chrono::steady_clock::now() + duration;
    const auto every = std::chrono::milliseconds(std::max<std::int64_t>(1, ttl_ms / 3));
    bool renewing = true;
    for (auto now = std::chrono::steady_clock::now(); now < until; now = std::chrono::steady_clock::now()) {
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(every, until - now));
        if (!renewing || std::chrono::steady_clock::now() >= until) continue;
        const Op renewed = session.perform(lease_op(fn::kRenew, key, owner, ttl_ms));
        if (session.process() != process) return;  // the worker was lost
        renewing = renewed.type == OpType::Ok;
    }
}

}  // namespace

LockWorkload::LockWorkload(WorkloadOptions options, WorkerPool& pool, HistoryRecorder& recorder,
                           ProtectedResource& resource, LiveState& live)
    : options_(std::move(options)), pool_(pool), recorder_(recorder), resource_(resource), live_(live) {}

void LockWorkload::run_slot(int slot, const std::atomic<bool>& stop) {
    try {
        run_cycles(slot, stop);
    } catch (const std::exception& e) {
        spdlog::error("worker slot {} stopped: {}", slot, e.what());
        std::lock_guard lock(failure_mutex_);
        if (first_failure_.empty()) first_failure_ = e.what();
        ++slots_failed_;
    }
    ++slots_stopped_;
}

std::string LockWorkload::first_failure() const {
    std::lock_guard lock(failure_mutex_);
    return first_failure_;
}

void LockWorkload::run_cycles(int slot, const std::atomic<bool>& stop) {
    std::mt19937_64 rng(options_.seed * 1000003u + static_cast<std::uint64_t>(slot));
    auto between = [&](std::int64_t lo, std::int64_t hi) {
        return std::chrono::milliseconds(std::uniform_int_distribution<std::int64_t>(lo, std::max(lo, hi))(rng));
    };
    SlotSession session(slot, pool_, recorder_, options_.op_timeout, next_request_id_, options_.capabilities);
    std::int64_t attempt = 0;

    while (!stop && !recorder_.full()) {
        const std::string& key = options_.keys[rng() % options_.keys.size()];
        const int process = session.process();
        const std::string owner = fmt::format("w{}-{}", process, ++attempt);

        live_.acquiring(process, key);
        const Op acquired = session.perform(acquire_op(session, key, owner, options_.ttl_ms));
        live_.acquire_done(process);
        if (acquired.type != OpType::Ok) {
            std::this_thread::sleep_for(between(5, 30));  // busy or unknown: back off, try with a new owner
            continue;
        }
        live_.acquired(process, key);
        // A re-entrant lock is entered again by its holder, with the same owner id:
        // re-entry is by owner identity (docs/recipes/redis-reentrant-hash.md).
        int entered = 1;
        if (session.supports("reentrant")) {
            const Op again = session.perform(acquire_op(session, key, owner, options_.ttl_ms));
            if (again.type == OpType::Ok) {
                ++entered;
                live_.acquired(process, key);
            }
        }

        // The critical section: read, hold, write back read + 1, each with the token.
        Op read;
        read.f = fn::kRead;
        read.key = key;
        read.token = acquired.token;
        const Op was = session.perform(read, [&](Op& op) {
            const auto access = resource_.read(key, op.token);
            op.type = access.accepted ? OpType::Ok : OpType::Fail;
            if (access.accepted) op.value = access.value;
            else op.error = std::string(err::kFenced);
        });
        if (was.type == OpType::Ok && session.process() == process) {
            hold(session, key, owner, options_.ttl_ms, between(options_.hold_ms.min, options_.hold_ms.max));
            Op write;
            write.f = fn::kWrite;
            write.key = key;
            write.token = acquired.token;
            write.value = was.value.get<std::int64_t>() + 1;
            session.perform(write, [&](Op& op) {
                const auto access = resource_.write(key, write.value.get<std::int64_t>(), op.token);
                op.type = access.accepted ? OpType::Ok : OpType::Fail;
                op.value = write.value;
                if (!access.accepted) op.error = std::string(err::kFenced);
            });
        }
        // The worker was replaced: it holds nothing we can release. Its lock
        // stays behind until its lease runs out (or forever, without one).
        for (; entered > 0 && session.process() == process; --entered) {
            live_.releasing(process, key);
            session.perform(lock_op(fn::kRelease, key, owner));
        }
        std::this_thread::sleep_for(between(options_.think_ms.min, options_.think_ms.max));
    }
}

}  // namespace lockcheck
