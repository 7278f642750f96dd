// The cost of one clock reading under the clock library (docs/benchmarks.md,
// "Clock library"): run it with and without the library preloaded
// (bench/clock_read.sh does both). Google Benchmark figures per call:
//   vdso/*      the vDSO's clock_gettime called directly, as Go does
//   libc/*      the C library's clock_gettime
//   syscall/*   the raw system call, what the library reads the time with
//   pread/record  one pread of a clock record: what re-reading the file per
//               call (instead of the library's shared mapping) would add
#include <benchmark/benchmark.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>

namespace {

using VdsoClockGettime = int (*)(clockid_t, timespec*);

VdsoClockGettime vdso_clock_gettime() {
    void* vdso = ::dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
    return vdso ? reinterpret_cast<VdsoClockGettime>(::dlsym(vdso, "__vdso_clock_gettime")) : nullptr;
}

void vdso(benchmark::State& state, clockid_t clock) {
    const auto read = vdso_clock_gettime();
    if (!read) return state.SkipWithError("no vDSO clock_gettime");
    timespec ts{};
    for (auto _ : state) {
        read(clock, &ts);
        benchmark::DoNotOptimize(ts);
    }
}

void libc(benchmark::State& state, clockid_t clock) {
    timespec ts{};
    for (auto _ : state) {
        ::clock_gettime(clock, &ts);
        benchmark::DoNotOptimize(ts);
    }
}

void raw_syscall(benchmark::State& state, clockid_t clock) {
    timespec ts{};
    for (auto _ : state) {
        ::syscall(SYS_clock_gettime, clock, &ts);
        benchmark::DoNotOptimize(ts);
    }
}

void pread_record(benchmark::State& state) {
    const char* path = std::getenv("LOCKCHECK_CLOCK_OFFSET_FILE");
    const int fd = path ? ::open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0) return state.SkipWithError("no LOCKCHECK_CLOCK_OFFSET_FILE");
    char record[160];
    for (auto _ : state) benchmark::DoNotOptimize(::pread(fd, record, sizeof record, 0));
    ::close(fd);
}

BENCHMARK_CAPTURE(vdso, realtime, CLOCK_REALTIME);
BENCHMARK_CAPTURE(vdso, monotonic, CLOCK_MONOTONIC);
BENCHMARK_CAPTURE(libc, realtime, CLOCK_REALTIME);
BENCHMARK_CAPTURE(libc, monotonic, CLOCK_MONOTONIC);
BENCHMARK_CAPTURE(raw_syscall, monotonic, CLOCK_MONOTONIC);
BENCHMARK(pread_record);

}  // namespace

BENCHMARK_MAIN();
