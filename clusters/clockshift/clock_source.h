/* The clock library's time source: the real time from the raw system call,
 * moved by the state of the process's clock file (clock_record.h), mapped
 * at the first use (lc_clock_file_path; none: nothing moves). No
 * allocation, no lock, no errno: it runs inside Go's vDSO calls. */
#ifndef LOCKCHECK_CLOCK_SOURCE_H
#define LOCKCHECK_CLOCK_SOURCE_H

#include <time.h>

/* The path of the clock file (NULL: none, nothing moves). Defined by what
 * clock_source.c is linked into: the clock library reads
 * LOCKCHECK_CLOCK_OFFSET_FILE (clockshift.c), the clock launcher's stub the
 * path the launcher wrote into it (static_stub.c). */
const char* lc_clock_file_path(void);

/* Maps the clock file, once; later calls do nothing. */
void lc_map_clock_file(void);

/* clock_gettime of `clock`, moved when it is a realtime or monotonic clock:
 * 0, or -errno. A monotonic clock never goes back in what it returns. */
long lc_shifted_gettime(clockid_t clock, struct timespec* ts);

/* When `clock` is moved: the real time of `clock` at which the process's
 * clock reaches `deadline` (now when it already has), in `real`, and 1;
 * otherwise 0 and `real` untouched. */
int lc_real_deadline(clockid_t clock, const struct timespec* deadline, struct timespec* real);

#endif
