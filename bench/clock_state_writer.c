/* Writes a clock record (clusters/clockshift/clock_record.h) to stdout for
 * bench/clock_read.sh: realtime offset ARG1 ns, monotonic rate ARG2 ppb
 * anchored now, the rest unmoved. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clusters/clockshift/clock_record.h"

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct lc_clock_state state = lc_clock_identity();
    state.realtime.offset_ns = atoll(argv[1]);
    state.monotonic.rate_ppb = atoll(argv[2]);
    state.monotonic.anchor_ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
    char record[LC_CLOCK_RECORD_SIZE + 1];
    lc_clock_format(&state, record);
    fwrite(record, 1, LC_CLOCK_RECORD_SIZE, stdout);
    return 0;
}
