/* The clock state of one process (a server node or a worker) as lockcheck's
 * clock library reads it and the harness writes it: for each clock group,
 * an offset and a rate (drift) from an anchor.
 *
 *   shifted(t) = t + offset + (r - anchor) * (rate - 1)
 *
 * where t is the real reading of the clock asked for and r the real
 * CLOCK_REALTIME: every anchor is a real wall-clock time, so the harness can
 * set it without knowing the monotonic clock of the host the process runs on
 * (runtime ssh). While rate is 1 the drift term is 0. Groups: realtime
 * (CLOCK_REALTIME, _COARSE, TAI; gettimeofday, time) and monotonic
 * (CLOCK_MONOTONIC, _COARSE, _RAW, BOOTTIME); other clocks never move.
 *
 * The record is text of fixed width (LC_CLOCK_RECORD_SIZE bytes): seven
 * signed decimals of 20 characters each followed by a blank (the last by a
 * newline): realtime offset ns, rate ppb (parts per 10^9, 10^9 = true
 * rate), anchor ns, the same three for monotonic, and a checksum of the six,
 * so a reader that races the harness's one write sees a torn record as
 * invalid and reads again. Shared by the library (clockshift.c) and the
 * harness (clusters/clock_offset.cpp), which is why it is C. */
#ifndef LOCKCHECK_CLOCK_RECORD_H
#define LOCKCHECK_CLOCK_RECORD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LC_CLOCK_RECORD_SIZE 147
#define LC_RATE_ONE 1000000000LL /* rate 1.0 in ppb */

struct lc_clock_line {
    int64_t offset_ns;
    int64_t rate_ppb;
    int64_t anchor_ns; /* real CLOCK_REALTIME, ns since the epoch */
};

struct lc_clock_state {
    struct lc_clock_line realtime;
    struct lc_clock_line monotonic;
};

/* The state that moves nothing: offsets 0, rates 1. */
struct lc_clock_state lc_clock_identity(void);

/* Whether `line` moves its clock at all. */
int lc_clock_line_moves(const struct lc_clock_line* line);

/* `real_ns` (a reading of a clock of `line`'s group) as shifted by `line`,
 * with `real_realtime_ns` the real wall clock at that moment. */
int64_t lc_clock_shift(const struct lc_clock_line* line, int64_t real_ns, int64_t real_realtime_ns);

/* Reads a record of `size` bytes at `text` (read once per byte, through
 * volatile: it may be shared memory the harness rewrites). Returns 1 and
 * fills `state` when it is a valid record, 0 otherwise (torn, empty). */
int lc_clock_parse(const volatile char* text, long size, struct lc_clock_state* state);

/* Writes the record of `state` (LC_CLOCK_RECORD_SIZE bytes, no NUL) to `out`,
 * which holds at least LC_CLOCK_RECORD_SIZE + 1 bytes. */
void lc_clock_format(const struct lc_clock_state* state, char* out);

#ifdef __cplusplus
}
#endif

#endif
