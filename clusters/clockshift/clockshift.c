/* lockcheck's clock library, loaded into a server or a worker with LD_PRELOAD.
 *
 * Moves the process's clocks by the state in the file named by
 * LOCKCHECK_CLOCK_OFFSET_FILE (clock_record.h: per clock group an offset and
 * a rate), re-read on every call, so the harness moves a running process's
 * clocks by rewriting that file in place. No file, or none named: nothing moves.
 *
 * Two ways in:
 * - symbol interposition of clock_gettime, gettimeofday and time: callers
 *   through the C library (C, C++, the JVM, Python, Node);
 * - the vDSO itself (vdso_patch.h): at load, the vDSO's clock_gettime,
 *   gettimeofday and time jump to this library's replacements
 *   (vdso_entries.h), which reach code that calls the vDSO directly (Go's
 *   runtime: a dynamically linked etcd). A statically linked program
 *   ignores LD_PRELOAD: the clock launcher (static_launcher/) patches its
 *   vDSO instead. Set LOCKCHECK_CLOCK_VDSO=off to leave the vDSO alone
 *   (tests use it).
 *
 * Every replacement reads the real time with the raw system call (never the
 * vDSO, which now jumps here) and the state from the file, mapped shared and
 * read-only at load (a page the harness's write lands in at once).
 *
 * Why this shape (docs/servers.md, "Clocks"): libfaketime deadlocks Debian's
 * redis-server at startup because jemalloc calls clock_gettime during its
 * own init and libfaketime then allocates. Go calls the vDSO on a small
 * stack from threads that may have no C library state. So the time path
 * never allocates, takes no lock, never touches errno (raw system calls) and
 * uses a few hundred bytes of stack; only the one-time set-up calls getenv.
 *
 * Waits until an absolute time of a moved clock (pthread_cond_clockwait,
 * pthread_cond_timedwait, clock_nanosleep with TIMER_ABSTIME) are
 * interposed too: their deadline, on the process's clock, is turned into
 * the real one (deadlines.c), so that a clock running at 0.5 waits twice as
 * long and a jumped one neither hangs nor returns at once.
 *
 * CLOCK_MONOTONIC never goes backwards in what the process observes: the
 * harness only moves it forward and changes rates continuously, and each
 * monotonic clock is clamped to the largest value this process returned. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#include "clock_source.h"
#include "raw_syscall.h"
#include "vdso_entries.h"
#include "vdso_patch.h"

#define EXPORT __attribute__((visibility("default")))

const char* lc_clock_file_path(void) { return getenv("LOCKCHECK_CLOCK_OFFSET_FILE"); }

__attribute__((constructor)) static void clockshift_init(void) {
    lc_map_clock_file(); /* once, here: the time path never calls getenv */
    if (!getenv("LOCKCHECK_CLOCK_OFFSET_FILE")) return;
    const char* vdso = getenv("LOCKCHECK_CLOCK_VDSO");
    if (vdso && vdso[0] == 'o' && vdso[1] == 'f' && vdso[2] == 'f') return;
    typedef void (*any_function)(void);
    any_function const replacements[LC_VDSO_FUNCTIONS] = {
        (any_function)lc_vdso_clock_gettime, (any_function)lc_vdso_gettimeofday, (any_function)lc_vdso_time};
    if (lc_vdso_patch(replacements) < 0) {
        static const char warning[] =
            "lockcheck clock library: cannot patch the vDSO; code that reads it directly keeps the real time\n";
        lc_syscall3(SYS_write, 2, warning, sizeof warning - 1);
    }
}

/* Interposed C library functions: its calling convention (errors as -1 and errno). */
EXPORT int clock_gettime(clockid_t clock, struct timespec* ts) {
    long rc = lc_shifted_gettime(clock, ts);
    if (rc == 0) return 0;
    errno = (int)-rc;
    return -1;
}

EXPORT int gettimeofday(struct timeval* restrict tv, void* restrict tz) {
    int rc = lc_vdso_gettimeofday(tv, tz);
    if (rc == 0) return 0;
    errno = -rc;
    return -1;
}

EXPORT time_t time(time_t* out) { return lc_vdso_time(out); }
