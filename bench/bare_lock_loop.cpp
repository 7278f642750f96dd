// Baseline for the harness benchmark: the redis-set-nx-px client driven in a
// tight loop in one process (acquire, release; same commands and client code
// as a worker), with no harness, pipes or history in between.
//
//   bare_lock_loop HOST:PORT SECONDS
// prints: cycles=N seconds=S cycles_per_second=R
#include <chrono>
#include <cstdio>
#include <string>

#include "workloads/redis_set_nx_px.hpp"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bare_lock_loop HOST:PORT SECONDS\n");
        return 254;
    }
    const double seconds = std::stod(argv[2]);
    if (seconds <= 0 || seconds > 600) {
        std::fprintf(stderr, "bare_lock_loop: SECONDS must be in (0, 600]\n");
        return 254;
    }
    lockcheck::RedisSetNxPx client(argv[1], {std::chrono::milliseconds(1000)});
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::duration<double>(seconds);
    long long cycles = 0;
    constexpr long long kMaxCycles = 100'000'000;  // bound in count as well as time
    while (std::chrono::steady_clock::now() < deadline && cycles < kMaxCycles) {
        const lockcheck::LockRequest request{"bench-lock", "bare-" + std::to_string(cycles), 1000};
        if (client.acquire(request).type != lockcheck::OpType::Ok) {
            std::fprintf(stderr, "bare_lock_loop: acquire failed at cycle %lld\n", cycles);
            return 255;
        }
        client.release(request);
        ++cycles;
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("cycles=%lld seconds=%.2f cycles_per_second=%.0f\n", cycles, elapsed,
                static_cast<double>(cycles) / elapsed);
    return 0;
}
