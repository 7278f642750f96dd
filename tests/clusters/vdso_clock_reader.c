/* A program that reads the clocks the way Go's runtime does, for the clock
 * library's integration test (clock_library_integration_test.cpp): straight
 * from the vDSO's __vdso_clock_gettime (its address from the dynamic loader's
 * handle of the vDSO, so no C library symbol is involved), next to the C
 * library's clock_gettime and the raw system call.
 *
 * Prints one line per clock (realtime, then monotonic): "NAME VDSO LIBC
 * SYSCALL" in ns. With an argument MS it then sleeps MS ms and prints the
 * two lines again. Exit 2 when the vDSO has no clock_gettime. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef int (*vdso_clock_gettime_t)(clockid_t, struct timespec*);

static long long ns(const struct timespec* ts) { return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec; }

static void print(const char* name, clockid_t clock, vdso_clock_gettime_t vdso) {
    struct timespec from_vdso, from_libc, from_kernel;
    vdso(clock, &from_vdso);
    clock_gettime(clock, &from_libc);
    syscall(SYS_clock_gettime, clock, &from_kernel);
    printf("%s %lld %lld %lld\n", name, ns(&from_vdso), ns(&from_libc), ns(&from_kernel));
}

int main(int argc, char** argv) {
    void* vdso_handle = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
    void* symbol = vdso_handle ? dlsym(vdso_handle, "__vdso_clock_gettime") : NULL;
    if (!symbol) return 2;
    vdso_clock_gettime_t vdso;
    memcpy(&vdso, &symbol, sizeof vdso); /* ISO C has no cast from an object pointer to a function pointer */
    for (int round = 0; round < (argc > 1 ? 2 : 1); ++round) {
        if (round == 1) usleep((useconds_t)atoi(argv[1]) * 1000);
        print("realtime", CLOCK_REALTIME, vdso);
        print("monotonic", CLOCK_MONOTONIC, vdso);
    }
    return 0;
}
