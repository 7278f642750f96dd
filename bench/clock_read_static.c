/* The cost of one clock reading in a statically linked program, with and
 * without the clock launcher (docs/benchmarks.md, "Clock library";
 * bench/clock_read.sh runs both). Linked with -static: glibc's static
 * clock_gettime calls the vDSO, which the launcher redirects to its stub.
 * Prints "static/CLOCK NS" per clock: the mean over ROUNDS rounds of
 * CALLS calls each, the fastest round (the least disturbed by other load). */
#include <stdio.h>
#include <time.h>

#define CALLS 200000
#define ROUNDS 10

static double ns_per_call(clockid_t clock) {
    double best = 1e18;
    for (int round = 0; round < ROUNDS; ++round) {
        struct timespec start, end, ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start); /* not redirected: CPU time, never moved */
        for (int i = 0; i < CALLS; ++i) clock_gettime(clock, &ts);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
        const double elapsed = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
        if (elapsed / CALLS < best) best = elapsed / CALLS;
    }
    return best;
}

int main(void) {
    printf("static/realtime %.0f ns\n", ns_per_call(CLOCK_REALTIME));
    printf("static/monotonic %.0f ns\n", ns_per_call(CLOCK_MONOTONIC));
    return 0;
}
