#include "workers/stock_workload.hpp"

#include <spdlog/spdlog.h>

#include "core/capabilities.hpp"
#include "core/interruptible_sleep.hpp"
#include "workers/slot_random.hpp"

namespace lockcheck {
namespace {

/// Attempts of stock-init and of the final stock-read, 250 ms apart: enough
/// for a server being restarted by the nemesis to come back.
constexpr int kAttempts = 40;
constexpr std::chrono::milliseconds kRetryPause{250};

Op stock_op(std::string_view f, const std::string& key) {
    Op op;
    op.f = std::string(f);
    op.key = key;
    return op;
}

/// Performs `f` on `key` until it completes ok (at most kAttempts times), or
/// `give_up()` says to stop or a stop is requested on `stop`. Returns whether
/// it succeeded.
template <typename GiveUp>
bool until_ok(SlotSession& session, std::string_view f, const std::string& key, GiveUp give_up,
              const std::stop_token& stop) {
    for (int attempt = 0; attempt < kAttempts && !give_up() && !stop.stop_requested(); ++attempt) {
        if (session.perform(stock_op(f, key)).type == OpType::Ok) return true;
        interruptible_sleep_for(stop, kRetryPause);
    }
    return false;
}

void run_stock_cycles(SlotSession& session, const WorkloadContext& context, int slot, const std::stop_token& stop) {
    const WorkloadOptions& options = context.options;
    const HistoryRecorder& recorder = context.recorder;
    SlotRandom random(options.seed, slot);
    const auto stopping = [&] { return stop.stop_requested() || recorder.full(); };
    for (const auto& key : options.keys)
        if (!until_ok(session, fn::kStockInit, key, stopping, stop))
            spdlog::warn("slot {}: stock-init of '{}' did not succeed", slot, key);

    while (!stopping()) {
        session.perform(stock_op(fn::kDecrement, random.pick(options.keys)));
        interruptible_sleep_for(stop, random.within(options.think_ms));
    }
    // The final reads: the last slot to read does so after every slot's last
    // decrement completed, which is what the oversell checker's final-stock
    // check needs. The recorder may be full: then nothing more is recorded.
    for (const auto& key : options.keys)
        if (!until_ok(
                session, fn::kStockRead, key, [&] { return recorder.full(); }, options.interrupt))
            spdlog::warn("slot {}: no final stock-read of '{}' succeeded", slot, key);
}

}  // namespace

const WorkloadDescriptor& stock_workload() {
    static const WorkloadDescriptor descriptor{
        "stock", "stock-init every key, then decrement a random key until the run stops, then stock-read every key",
        capability::kStock, run_stock_cycles};
    return descriptor;
}

}  // namespace lockcheck
