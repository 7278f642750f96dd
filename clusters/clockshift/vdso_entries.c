/* The vDSO's replacements (vdso_entries.h). */
#define _GNU_SOURCE
#include "vdso_entries.h"

#include <sys/syscall.h>

#include "clock_source.h"
#include "raw_syscall.h"

int lc_vdso_clock_gettime(clockid_t clock, struct timespec* ts) { return (int)lc_shifted_gettime(clock, ts); }

int lc_vdso_gettimeofday(struct timeval* tv, struct timezone* tz) {
    if (tz) {
        long rc = lc_syscall3(SYS_gettimeofday, 0, tz, 0);
        if (rc != 0) return (int)rc;
    }
    if (!tv) return 0;
    struct timespec ts;
    long rc = lc_shifted_gettime(CLOCK_REALTIME, &ts);
    if (rc != 0) return (int)rc;
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
    return 0;
}

time_t lc_vdso_time(time_t* out) {
    struct timespec ts;
    if (lc_shifted_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}
