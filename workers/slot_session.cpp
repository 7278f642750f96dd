#include "workers/slot_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace lockcheck {

SlotSession::SlotSession(int slot, WorkerPool& pool, HistoryRecorder& recorder, std::chrono::milliseconds timeout,
                         std::atomic<std::int64_t>& ids, const std::vector<std::string>& capabilities,
                         ReplyCutoff cutoff)
    : slot_(slot),
      pool_(pool),
      recorder_(recorder),
      timeout_(timeout),
      ids_(ids),
      capabilities_(capabilities),
      worker_(pool.worker(slot)),
      cutoff_(std::move(cutoff)) {}

int SlotSession::process() const { return worker_->process(); }

bool SlotSession::supports(std::string_view what) const {
    return std::find(capabilities_.begin(), capabilities_.end(), what) != capabilities_.end();
}

Op SlotSession::perform(Op invoke, const std::function<void(Op&)>& apply) {
    invoke.process = process();
    invoke.type = OpType::Invoke;
    const Op recorded = recorder_.record(invoke);
    WorkerRequest request{ids_++, invoke.f, invoke.key, invoke.owner, invoke.ttl_ms, invoke.value};
    auto result = worker_->call(request, timeout_, cutoff_);

    Op done = invoke;
    // A write the worker performs itself keeps the value it was asked to write.
    const bool worker_write = invoke.resource && invoke.f == fn::kWrite;
    if (!worker_write) done.value = nullptr;
    done.ttl_ms.reset();
    if (!result.reply) {
        const bool controller_resource_op = !invoke.resource && (invoke.f == fn::kRead || invoke.f == fn::kWrite);
        done.type = controller_resource_op ? OpType::Fail : OpType::Info;
        done.error = result.failure;
        Op completion = recorder_.record(done);
        spdlog::warn("worker {}: op {} ({}) got no reply: {}", process(), recorded.index, invoke.f, result.failure);
        if (!result.interrupted) worker_ = pool_.replace(slot_);
        return completion;
    }
    done.type = result.reply->type;
    done.error = result.reply->error;
    if (result.reply->token) done.token = result.reply->token;
    if (result.reply->valid_ms && done.type == OpType::Ok) done.valid_ms = *result.reply->valid_ms;
    if (!result.reply->value.is_null() && !worker_write) done.value = result.reply->value;
    if (done.type == OpType::Ok && apply) return recorder_.record(done, apply);
    return recorder_.record(done);
}

}  // namespace lockcheck
