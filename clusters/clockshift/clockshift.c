/* lockcheck's clock-shift library, loaded into a server with LD_PRELOAD.
 *
 * Overrides clock_gettime (CLOCK_REALTIME and its variants only),
 * gettimeofday and time: each reads the real time with the raw syscall and
 * adds the offset, in milliseconds, stored as decimal text in the file named
 * by LOCKCHECK_CLOCK_OFFSET_FILE (missing or unreadable file: offset 0). The
 * file is read with pread on every call, so the harness moves a running
 * server's clock by rewriting it.
 *
 * Why this shape (docs/servers.md, "Clock skew"): libfaketime deadlocks Debian's
 * redis-server at startup because jemalloc calls clock_gettime during its own
 * init and libfaketime then allocates. This library never allocates, never
 * calls dlsym and never maps memory: only getenv, open, pread and syscall.
 * CLOCK_MONOTONIC and the other clocks are left alone (moving them breaks
 * Redis's timers). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int offset_fd = -2; /* -2: not opened yet; -1: no file */

static long long offset_ms(void) {
    if (offset_fd == -2) {
        const char* path = getenv("LOCKCHECK_CLOCK_OFFSET_FILE");
        int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
        /* benign race: two threads may both open; the loser's fd stays open */
        offset_fd = fd;
    }
    if (offset_fd < 0) return 0;
    char text[32];
    ssize_t n = pread(offset_fd, text, sizeof text - 1, 0);
    if (n <= 0) return 0;
    long long value = 0;
    int negative = 0;
    ssize_t i = 0;
    if (text[0] == '-') negative = 1, i = 1;
    for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i) value = value * 10 + (text[i] - '0');
    return negative ? -value : value;
}

static int is_realtime(clockid_t clock) {
    return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE
#ifdef CLOCK_TAI
           || clock == CLOCK_TAI
#endif
        ;
}

static void shift(struct timespec* ts, long long ms) {
    long long ns = (long long)ts->tv_nsec + (ms % 1000) * 1000000LL;
    long long sec = (long long)ts->tv_sec + ms / 1000;
    while (ns < 0) ns += 1000000000LL, sec -= 1;
    while (ns >= 1000000000LL) ns -= 1000000000LL, sec += 1;
    ts->tv_sec = (time_t)sec;
    ts->tv_nsec = (long)ns;
}

int clock_gettime(clockid_t clock, struct timespec* ts) {
    int rc = (int)syscall(SYS_clock_gettime, clock, ts);
    if (rc == 0 && is_realtime(clock)) shift(ts, offset_ms());
    return rc;
}

int gettimeofday(struct timeval* restrict tv, void* restrict tz) {
    (void)tz;
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return -1;
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
    return 0;
}

time_t time(time_t* out) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}
