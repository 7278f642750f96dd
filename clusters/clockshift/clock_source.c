/* The clock library's time source (clock_source.h). */
#define _GNU_SOURCE
#include "clock_source.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "clock_record.h"
#include "raw_syscall.h"

#define NS_PER_S 1000000000LL
#define MAX_DEADLINE_S 7258118400LL       /* 2200-01-01 */
#define MAX_WAIT_NS 1000000000000000000LL /* about 31 years */
#define READ_ATTEMPTS 1000                /* a torn record is re-read; the harness's write takes microseconds */

static const volatile char* record; /* the mapped state file; NULL: none or not mapped yet */
static int record_checked;          /* 1 once the file was looked for */

void lc_map_clock_file(void) {
    const char* path = lc_clock_file_path();
    const char* mapped = NULL;
    if (path) {
        long fd = lc_syscall3(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            long at = lc_syscall6(SYS_mmap, 0, 4096, PROT_READ, MAP_SHARED, fd, 0);
            if (at >= 0 || at < -4095) mapped = (const char*)at;
            lc_syscall3(SYS_close, fd, 0, 0);
        }
    }
    const volatile char* expected = NULL;
    if (mapped && !__atomic_compare_exchange_n(&record, &expected, mapped, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        lc_syscall3(SYS_munmap, mapped, 4096, 0); /* another thread mapped it first */
    __atomic_store_n(&record_checked, 1, __ATOMIC_RELEASE);
}

static struct lc_clock_state read_state(void) {
    struct lc_clock_state state;
    if (!__atomic_load_n(&record_checked, __ATOMIC_ACQUIRE)) lc_map_clock_file();
    const volatile char* text = __atomic_load_n(&record, __ATOMIC_ACQUIRE);
    if (text)
        for (int i = 0; i < READ_ATTEMPTS; ++i)
            if (lc_clock_parse(text, LC_CLOCK_RECORD_SIZE, &state)) return state;
    return lc_clock_identity();
}

/* The index of a monotonic clock in `highest`, or -1 for the realtime ones, -2 for the rest. */
static int clock_group(clockid_t clock) {
    switch (clock) {
        case CLOCK_REALTIME:
        case CLOCK_REALTIME_COARSE:
        case CLOCK_TAI: return -1;
        case CLOCK_MONOTONIC: return 0;
        case CLOCK_MONOTONIC_COARSE: return 1;
        case CLOCK_MONOTONIC_RAW: return 2;
        case CLOCK_BOOTTIME: return 3;
        default: return -2;
    }
}

static int64_t highest[4]; /* per monotonic clock: the largest value returned */

static int64_t never_back(int group, int64_t value) {
    int64_t seen = __atomic_load_n(&highest[group], __ATOMIC_RELAXED);
    while (value > seen)
        if (__atomic_compare_exchange_n(&highest[group], &seen, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return value;
    return value > seen ? value : seen;
}

static int64_t ns_of(const struct timespec* ts) { return (int64_t)ts->tv_sec * NS_PER_S + ts->tv_nsec; }

long lc_shifted_gettime(clockid_t clock, struct timespec* ts) {
    long rc = lc_syscall3(SYS_clock_gettime, clock, ts, 0);
    const int group = clock_group(clock);
    if (rc != 0 || group == -2) return rc;
    const struct lc_clock_state state = read_state();
    const struct lc_clock_line* line = group == -1 ? &state.realtime : &state.monotonic;
    if (!lc_clock_line_moves(line)) return 0;
    const int64_t real = ns_of(ts);
    int64_t wall = real;
    if (group >= 0 && line->rate_ppb != LC_RATE_ONE) {
        struct timespec now;
        lc_syscall3(SYS_clock_gettime, CLOCK_REALTIME, &now, 0);
        wall = ns_of(&now);
    }
    int64_t shifted = lc_clock_shift(line, real, wall);
    if (group >= 0) shifted = never_back(group, shifted);
    int64_t seconds = shifted / NS_PER_S, nanos = shifted % NS_PER_S;
    if (nanos < 0) nanos += NS_PER_S, seconds -= 1;
    ts->tv_sec = (time_t)seconds;
    ts->tv_nsec = (long)nanos;
    return 0;
}

int lc_real_deadline(clockid_t clock, const struct timespec* deadline, struct timespec* real) {
    const int group = clock_group(clock);
    /* A deadline past year 2200 ("forever") is left alone: its ns would overflow. */
    if (group == -2 || !deadline || deadline->tv_sec > MAX_DEADLINE_S || deadline->tv_sec < 0) return 0;
    const struct lc_clock_state state = read_state();
    const struct lc_clock_line* line = group == -1 ? &state.realtime : &state.monotonic;
    if (!lc_clock_line_moves(line)) return 0;
    struct timespec shifted_now, real_now;
    if (lc_shifted_gettime(clock, &shifted_now) != 0 || lc_syscall3(SYS_clock_gettime, clock, &real_now, 0) != 0)
        return 0;
    int64_t left = ns_of(deadline) - ns_of(&shifted_now);
    if (left < 0) left = 0;
    __extension__ __int128 wait = (__extension__(__int128) left) * LC_RATE_ONE / line->rate_ppb;
    if (wait > MAX_WAIT_NS) wait = MAX_WAIT_NS; /* keeps `at` below 2^63 */
    const int64_t real_left = (int64_t)wait;
    const int64_t at = ns_of(&real_now) + real_left;
    real->tv_sec = (time_t)(at / NS_PER_S);
    real->tv_nsec = (long)(at % NS_PER_S);
    return 1;
}
