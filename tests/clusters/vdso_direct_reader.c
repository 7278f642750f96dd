/* A statically linked program without a C library that reads the clocks the
 * way Go's runtime does in a static binary: it finds the vDSO through the
 * auxiliary vector (AT_SYSINFO_EHDR), looks up __vdso_clock_gettime in its
 * symbol table itself (clusters/clockshift/vdso_image.c) and calls it. For
 * the clock launcher's integration test (clock_launcher_integration_test.cpp).
 *
 * Prints "pid PID 0", then "realtime VDSO SYSCALL" and "monotonic VDSO
 * SYSCALL" in ns (SYSCALL: the raw system call's reading). Exit 2 when the
 * vDSO has no clock_gettime. */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#include "clusters/clockshift/raw_syscall.h"
#include "clusters/clockshift/vdso_image.h"

/* What vdso_image.c and the compiler call: no C library here. */
int memcmp(const void* a, const void* b, size_t size);
int strcmp(const char* a, const char* b);
void* memcpy(void* to, const void* from, size_t size);
void* memset(void* to, int value, size_t size);

int memcmp(const void* a, const void* b, size_t size) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < size; ++i)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

int strcmp(const char* a, const char* b) {
    while (*a && *a == *b) ++a, ++b;
    return (unsigned char)*a - (unsigned char)*b;
}

void* memcpy(void* to, const void* from, size_t size) {
    unsigned char* out = to;
    const unsigned char* in = from;
    for (size_t i = 0; i < size; ++i) out[i] = in[i];
    return to;
}

void* memset(void* to, int value, size_t size) {
    unsigned char* out = to;
    for (size_t i = 0; i < size; ++i) out[i] = (unsigned char)value;
    return to;
}

static void print(const char* name, long long first, long long second) {
    char line[96];
    size_t at = 0;
    while (*name) line[at++] = *name++;
    const long long values[2] = {first, second};
    for (int v = 0; v < 2; ++v) {
        char digits[24];
        int count = 0;
        unsigned long long value = (unsigned long long)values[v];
        do digits[count++] = (char)('0' + value % 10), value /= 10;
        while (value);
        line[at++] = ' ';
        while (count) line[at++] = digits[--count];
    }
    line[at++] = '\n';
    lc_syscall3(SYS_write, 1, line, at);
}

static long long ns(const struct timespec* ts) { return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec; }

typedef int (*clock_gettime_fn)(clockid_t, struct timespec*);

/* Called by _start with the initial stack: argc, argv..., 0, envp..., 0, auxv. */
__attribute__((used)) static int start_c(long* stack) {
    long* at = stack + 1 + stack[0] + 1;
    while (*at) ++at;
    uintptr_t vdso_base = 0;
    for (const Elf64_auxv_t* aux = (const Elf64_auxv_t*)(at + 1); aux->a_type != AT_NULL; ++aux)
        if (aux->a_type == AT_SYSINFO_EHDR) vdso_base = aux->a_un.a_val;
    struct lc_vdso_image image;
    if (!lc_vdso_image_open(vdso_base, &image)) return 2;
    const uintptr_t function = lc_vdso_image_function(&image, "__vdso_clock_gettime");
    if (!function) return 2;
    const clock_gettime_fn vdso_clock_gettime = (clock_gettime_fn)function;
    print("pid", lc_syscall3(SYS_getpid, 0, 0, 0), 0);
    const clockid_t clocks[2] = {CLOCK_REALTIME, CLOCK_MONOTONIC};
    const char* names[2] = {"realtime", "monotonic"};
    for (int c = 0; c < 2; ++c) {
        struct timespec from_vdso, from_kernel;
        vdso_clock_gettime(clocks[c], &from_vdso);
        lc_syscall3(SYS_clock_gettime, clocks[c], &from_kernel, 0);
        print(names[c], ns(&from_vdso), ns(&from_kernel));
    }
    return 0;
}

__asm__(
    ".text\n"
    ".globl _start\n"
    "_start:\n"
    "    xor %ebp, %ebp\n"
    "    mov %rsp, %rdi\n"
    "    and $-16, %rsp\n"
    "    call start_c\n"
    "    mov %eax, %edi\n"
    "    mov $231, %eax\n" /* exit_group */
    "    syscall\n"
    "    hlt\n");
