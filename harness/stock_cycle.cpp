#include "harness/stock_cycle.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "core/interruptible_sleep.hpp"

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

}  // namespace

void run_stock_cycles(SlotSession& session, const HistoryRecorder& recorder, const StockCycleOptions& options, int slot,
                      const std::stop_token& stop) {
    std::mt19937_64 rng(options.seed * 1000003u + static_cast<std::uint64_t>(slot));
    auto think = [&] {
        return std::chrono::milliseconds(std::uniform_int_distribution<std::int64_t>(
            options.think_ms.min, std::max(options.think_ms.min, options.think_ms.max))(rng));
    };
    const auto stopping = [&] { return stop.stop_requested() || recorder.full(); };
    for (const auto& key : options.keys)
        if (!until_ok(session, fn::kStockInit, key, stopping, stop))
            spdlog::warn("slot {}: stock-init of '{}' did not succeed", slot, key);

    while (!stopping()) {
        session.perform(stock_op(fn::kDecrement, options.keys[rng() % options.keys.size()]));
        interruptible_sleep_for(stop, think());
    }
    // The final reads: the last slot to read does so after every slot's last
    // decrement completed, which is what the oversell checker's final-stock
    // check needs. The recorder may be full: then nothing more is recorded.
    for (const auto& key : options.keys)
        if (!until_ok(session, fn::kStockRead, key, [&] { return recorder.full(); }, options.interrupt))
            spdlog::warn("slot {}: no final stock-read of '{}' succeeded", slot, key);
}

}  // namespace lockcheck
