/* A statically linked program that reads the clocks through the C library
 * (glibc's static clock_gettime, gettimeofday and time call the vDSO), for
 * the clock launcher's integration test (clock_launcher_integration_test.cpp;
 * CMake links it with -static: LD_PRELOAD never reaches it).
 *
 * Prints "pid PID 0", then one line per reading: "NAME VALUE SYSCALL" in ns,
 * VALUE from clock_gettime (realtime, monotonic), gettimeofday or time, and
 * SYSCALL the raw system call's reading of the same clock. With an argument
 * MS it then sleeps MS ms and prints the readings again. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long ns(const struct timespec* ts) { return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec; }

static long long kernel(clockid_t clock) {
    struct timespec ts;
    syscall(SYS_clock_gettime, clock, &ts);
    return ns(&ts);
}

static void print_all(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    printf("realtime %lld %lld\n", ns(&ts), kernel(CLOCK_REALTIME));
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("monotonic %lld %lld\n", ns(&ts), kernel(CLOCK_MONOTONIC));
    struct timeval tv;
    gettimeofday(&tv, NULL);
    printf("gettimeofday %lld %lld\n", (long long)tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL,
           kernel(CLOCK_REALTIME));
    const time_t seconds = time(NULL);
    printf("time %lld %lld\n", (long long)seconds * 1000000000LL, kernel(CLOCK_REALTIME));
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line as it is printed: the test looks at the process meanwhile */
    printf("pid %d 0\n", (int)getpid());
    print_all();
    if (argc > 1) {
        usleep((useconds_t)atoi(argv[1]) * 1000);
        print_all();
    }
    return 0;
}
