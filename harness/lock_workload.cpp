#include "harness/lock_workload.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <random>
#include <thread>

namespace lockcheck {
namespace {

/// One slot's view while it runs: its current worker and how to talk to it.
class SlotSession {
public:
    SlotSession(int slot, WorkerPool& pool, HistoryRecorder& recorder, std::chrono::milliseconds timeout,
                std::atomic<std::int64_t>& ids)
        : slot_(slot), pool_(pool), recorder_(recorder), timeout_(timeout), ids_(ids), worker_(pool.worker(slot)) {}

    int process() const { return worker_->process(); }

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
        if (done.type == OpType::Ok && apply) return recorder_.record(done, apply);
        return recorder_.record(done);
    }

private:
    int slot_;
    WorkerPool& pool_;
    HistoryRecorder& recorder_;
    std::chrono::milliseconds timeout_;
    std::atomic<std::int64_t>& ids_;
    std::shared_ptr<WorkerProcess> worker_;
};

Op lock_op(std::string_view f, const std::string& key, const std::string& owner) {
    Op op;
    op.f = std::string(f);
    op.key = key;
    op.owner = owner;
    return op;
}

}  // namespace

LockWorkload::LockWorkload(WorkloadOptions options, WorkerPool& pool, HistoryRecorder& recorder,
                           ProtectedResource& resource, LiveState& live)
    : options_(std::move(options)), pool_(pool), recorder_(recorder), resource_(resource), live_(live) {}

void LockWorkload::run_slot(int slot, const std::atomic<bool>& stop) {
    std::mt19937_64 rng(options_.seed * 1000003u + static_cast<std::uint64_t>(slot));
    auto between = [&](std::int64_t lo, std::int64_t hi) {
        return std::chrono::milliseconds(std::uniform_int_distribution<std::int64_t>(lo, std::max(lo, hi))(rng));
    };
    SlotSession session(slot, pool_, recorder_, options_.op_timeout, next_request_id_);
    std::int64_t attempt = 0;

    while (!stop && !recorder_.full()) {
        const std::string& key = options_.keys[rng() % options_.keys.size()];
        const int process = session.process();
        const std::string owner = fmt::format("w{}-{}", process, ++attempt);

        Op acquire = lock_op(fn::kAcquire, key, owner);
        acquire.ttl_ms = options_.ttl_ms;
        const Op acquired = session.perform(acquire);
        if (acquired.type != OpType::Ok) {
            std::this_thread::sleep_for(between(5, 30));  // busy or unknown: back off, try with a new owner
            continue;
        }
        live_.acquired(process, key);

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
            std::this_thread::sleep_for(between(options_.hold_ms.min, options_.hold_ms.max));
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
        if (session.process() != process) continue;  // the worker was replaced: it holds nothing we can release

        live_.releasing(process, key);
        session.perform(lock_op(fn::kRelease, key, owner));
        std::this_thread::sleep_for(between(options_.think_ms.min, options_.think_ms.max));
    }
}

}  // namespace lockcheck
