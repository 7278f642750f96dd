#include "recipes/snowflake_ids.hpp"

#include <time.h>

namespace lockcheck {

std::int64_t ProcessSnowflakeClock::wall_ms() {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);  // through the C library: the clock library (LD_PRELOAD) reaches it
    return static_cast<std::int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
}

std::int64_t ProcessSnowflakeClock::steady_ns() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

void ProcessSnowflakeClock::pause() {
    const timespec tenth_ms{0, 100'000};
    nanosleep(&tenth_ms, nullptr);
}

std::int64_t snowflake_worker_id(int process) {
    const auto id = static_cast<std::int64_t>(process) % (kSnowflakeMaxWorker + 1);
    return id < 0 ? id + kSnowflakeMaxWorker + 1 : id;
}

SnowflakeIds::SnowflakeIds(int process, SnowflakeGenerator::Backward backward, std::chrono::milliseconds max_wait)
    : generator_(clock_, snowflake_worker_id(process), backward, max_wait) {}

LockResult SnowflakeIds::generate_id(const std::string&) {
    auto outcome = generator_.next();
    if (const auto* refusal = std::get_if<SnowflakeGenerator::Refusal>(&outcome))
        return LockResult::fail(refusal->reason);
    return generated_id(std::get<std::int64_t>(outcome));
}

}  // namespace lockcheck
