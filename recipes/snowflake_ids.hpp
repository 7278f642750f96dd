// Recipes "snowflake-ids" and "snowflake-ids-guarded": not a lock and no
// server, the Snowflake id generator (recipes/snowflake_generator.hpp) in
// every worker process, a UniqueIdClient (capability "unique-ids", driven by
// workers/unique_ids_workload.hpp, judged by checkers/unique_ids.hpp).
//
// generate_id: the next id of the process's generator, whatever the key:
//              ok {"id": N}; fail when the generator refuses (no id issued).
// The worker id is the worker's process number modulo 1024; the timestamp is
// the process's wall clock (clock_gettime(CLOCK_REALTIME) through the C
// library, which the client-clock-skew fault moves).
// snowflake-ids reuses timestamps when the clock goes back; -guarded waits up
// to max_wait_ms for the clock to catch up, then refuses.
// Promise: every id is new while the worker's clock never reads earlier than
// a millisecond it already used and no two live workers share a worker id.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "recipes/recipe_descriptor.hpp"
#include "recipes/snowflake_generator.hpp"
#include "recipes/unique_id_client.hpp"

namespace lockcheck {

/// The process's clocks: CLOCK_REALTIME, CLOCK_MONOTONIC, and a 100 µs sleep.
class ProcessSnowflakeClock : public SnowflakeClock {
public:
    std::int64_t wall_ms() override;
    std::int64_t steady_ns() override;
    void pause() override;
};

class SnowflakeIds : public UniqueIdClient {
public:
    /// The generator of worker `process`.
    SnowflakeIds(int process, SnowflakeGenerator::Backward backward, std::chrono::milliseconds max_wait);
    LockResult generate_id(const std::string& key) override;

private:
    ProcessSnowflakeClock clock_;
    SnowflakeGenerator generator_;
};

/// The worker id of worker `process`: its number modulo 1024 (10 bits).
std::int64_t snowflake_worker_id(int process);

/// The descriptors of these recipes (recipes/snowflake_ids_descriptor.cpp).
RecipeDescriptor snowflake_ids_recipe();
RecipeDescriptor snowflake_ids_guarded_recipe();

}  // namespace lockcheck
