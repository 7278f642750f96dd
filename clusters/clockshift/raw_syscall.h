/* System calls without the C library: no errno (a thread Go made without
 * the C library has no errno of libc's), no vDSO. Each returns the kernel's
 * value: >= 0, or -errno. x86_64. */
#ifndef LOCKCHECK_RAW_SYSCALL_H
#define LOCKCHECK_RAW_SYSCALL_H

static inline long lc_syscall6(long number, long a, long b, long c, long d, long e, long f) {
    long result;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return result;
}

#define lc_syscall3(n, a, b, c) lc_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

#endif
