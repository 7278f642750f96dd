/* The replacements of the vDSO's time functions: the shifted clocks
 * (clock_source.h) with the vDSO's calling convention (errors as -errno).
 * The clock library jumps to them from its own vDSO (clockshift.c), the
 * clock launcher's stub from a static program's (static_stub.c): one
 * source, compiled into both. */
#ifndef LOCKCHECK_VDSO_ENTRIES_H
#define LOCKCHECK_VDSO_ENTRIES_H

#include <sys/time.h>
#include <time.h>

int lc_vdso_clock_gettime(clockid_t clock, struct timespec* ts);
int lc_vdso_gettimeofday(struct timeval* tv, struct timezone* tz);
time_t lc_vdso_time(time_t* out);

#endif
