/* Another process, stopped under ptrace by this one, worked on from
 * outside: its memory read and written through /proc/PID/mem (which may
 * write its read-only pages, as debuggers do), and system calls made in it
 * (a `syscall` instruction written at its stopped instruction pointer, its
 * registers set, one single step). Everything is put back by
 * lc_remote_close. x86_64. */
#ifndef LOCKCHECK_REMOTE_PROCESS_H
#define LOCKCHECK_REMOTE_PROCESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

struct lc_remote {
    pid_t pid;
    int mem;                       /* /proc/PID/mem, read+write; -1 when not open */
    struct user_regs_struct saved; /* its registers at the stop */
    unsigned char saved_code[2];   /* the bytes the syscall instruction replaced */
    int code_replaced;
    uint64_t signals; /* bit n: signal n stopped it meanwhile; lc_remote_resend delivers them */
    char error[256];  /* what failed last */
};

/* Opens `pid` (stopped by this process's ptrace) for work. Returns 1, or 0
 * with remote->error set. */
int lc_remote_open(struct lc_remote* remote, pid_t pid);

/* Makes system call `number` in the process, its result (>= 0 or -errno)
 * in `result`. 1, or 0 with remote->error set when the process could not be
 * made to run it. */
int lc_remote_syscall(struct lc_remote* remote, long* result, long number, long a, long b, long c, long d, long e,
                      long f);

/* Reads or writes `size` bytes at `address` of the process. 1, or 0 with remote->error set. */
int lc_remote_read(struct lc_remote* remote, uintptr_t address, void* out, size_t size);
int lc_remote_write(struct lc_remote* remote, uintptr_t address, const void* bytes, size_t size);

/* Puts back the replaced code and the registers, with the instruction
 * pointer at `resume_at` (0: where it was), and closes. 1, or 0 with
 * remote->error set. */
int lc_remote_close(struct lc_remote* remote, uintptr_t resume_at);

/* Sets remote->error to the message of `format`, followed by ": " and
 * strerror(error) when `error` is not 0. Returns 0 (failure). */
int lc_remote_fail(struct lc_remote* remote, int error, const char* format, ...) __attribute__((format(printf, 3, 4)));

/* Sends the process the signals that stopped it while it was worked on
 * (call it once ptrace let go of it: they were held back meanwhile). */
void lc_remote_resend(const struct lc_remote* remote);

#endif
