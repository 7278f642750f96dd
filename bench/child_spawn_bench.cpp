// The spawn part of worker start-up in isolation (docs/benchmarks.md, "Worker
// start-up"): starts N children the way the run starts workers (ChildProcess
// with pipes for stdin/stdout, each in a cgroup of its own inside a contained
// run when the machine has cgroups), one after another from one thread, then
// closes their stdin and reaps them. PROGRAM should exit at EOF on its stdin
// (e.g. cat, or `lockcheck worker`).
//
//   child_spawn_bench N PROGRAM [ARG...]
// prints: spawns=N wall_ms_per_spawn=W controller_cpu_ms_per_spawn=C
// where C is the controller's own CPU time (user + system) while spawning.
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "host/child_process.hpp"
#include "host/run_containment.hpp"

namespace {

double cpu_seconds() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: child_spawn_bench N PROGRAM [ARG...]\n");
        return 254;
    }
    const int count = std::stoi(argv[1]);
    if (count < 1 || count > 1000) {
        std::fprintf(stderr, "child_spawn_bench: N must be in [1, 1000]\n");
        return 254;
    }
    const std::vector<std::string> program(argv + 2, argv + argc);
    char run_id[8];
    std::snprintf(run_id, sizeof run_id, "%06x", static_cast<unsigned>(::getpid()) & 0xffffffU);
    const lockcheck::RunContainment containment(run_id);  // cgroups as in a run; everything left dies with it
    std::vector<std::unique_ptr<lockcheck::ChildProcess>> children;
    const auto wall_start = std::chrono::steady_clock::now();
    const double cpu_start = cpu_seconds();
    try {
        for (int i = 0; i < count; ++i)
            children.push_back(std::make_unique<lockcheck::ChildProcess>(
                lockcheck::ChildSpec{program, std::nullopt, "/dev/null", true}));
    } catch (const lockcheck::SpawnError& e) {
        std::fprintf(stderr, "child_spawn_bench: %s\n", e.what());
        return 255;
    }
    const double cpu = cpu_seconds() - cpu_start;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    for (auto& child : children) child->close_stdin();
    for (auto& child : children) child->wait_for_exit(std::chrono::seconds(10));
    std::printf("spawns=%d wall_ms_per_spawn=%.3f controller_cpu_ms_per_spawn=%.3f\n", count, wall * 1000 / count,
                cpu * 1000 / count);
    return 0;
}
