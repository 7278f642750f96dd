// Baseline for the harness benchmark: the redis-set-nx-px client driven in a
// tight loop (acquire, release; same commands and client code as a worker),
// with no harness, pipes or history in between. With CLIENTS > 1, that many
// threads in one process each loop with a client and a key of their own: what
// redis-server gives that many clients when nothing else is in the way.
//
//   bare_lock_loop HOST:PORT SECONDS [CLIENTS]
// prints: clients=C cycles=N seconds=S cycles_per_second=R
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "recipes/redis_set_nx_px.hpp"

namespace {

constexpr long long kMaxCyclesPerClient = 100'000'000;  // bound in count as well as time

/// One client's loop until `deadline`; its cycles, or -1 when an acquire failed.
long long client_loop(const std::string& endpoint, int client_number, std::chrono::steady_clock::time_point deadline) {
    lockcheck::RedisSetNxPx client(endpoint, {std::chrono::milliseconds(1000)});
    const std::string key = "bench-lock-" + std::to_string(client_number);
    long long cycles = 0;
    while (std::chrono::steady_clock::now() < deadline && cycles < kMaxCyclesPerClient) {
        const lockcheck::LockRequest request{key, "bare-" + std::to_string(cycles), 1000};
        if (client.acquire(request).type != lockcheck::OpType::Ok) {
            std::fprintf(stderr, "bare_lock_loop: client %d: acquire failed at cycle %lld\n", client_number, cycles);
            return -1;
        }
        client.release(request);
        ++cycles;
    }
    return cycles;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        std::fprintf(stderr, "usage: bare_lock_loop HOST:PORT SECONDS [CLIENTS]\n");
        return 254;
    }
    const double seconds = std::stod(argv[2]);
    if (seconds <= 0 || seconds > 600) {
        std::fprintf(stderr, "bare_lock_loop: SECONDS must be in (0, 600]\n");
        return 254;
    }
    const int clients = argc == 4 ? std::stoi(argv[3]) : 1;
    if (clients < 1 || clients > 1000) {
        std::fprintf(stderr, "bare_lock_loop: CLIENTS must be in [1, 1000]\n");
        return 254;
    }
    const auto start = std::chrono::steady_clock::now();
    const auto deadline =
        start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
    std::vector<long long> cycles(static_cast<std::size_t>(clients), 0);
    {
        std::vector<std::jthread> threads;
        for (int c = 0; c < clients; ++c)
            threads.emplace_back([&, c] {
                try {
                    cycles[static_cast<std::size_t>(c)] = client_loop(argv[1], c, deadline);
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "bare_lock_loop: client %d: %s\n", c, e.what());
                    cycles[static_cast<std::size_t>(c)] = -1;
                }
            });
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    long long total = 0;
    for (const long long n : cycles) {
        if (n < 0) return 255;
        total += n;
    }
    std::printf("clients=%d cycles=%lld seconds=%.2f cycles_per_second=%.0f\n", clients, total, elapsed,
                static_cast<double>(total) / elapsed);
    return 0;
}
