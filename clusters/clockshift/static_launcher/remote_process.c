/* Another process worked on from outside (remote_process.h). */
#define _GNU_SOURCE
#include "remote_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#define SINGLE_STEPS 1000 /* stops it may make before the syscall is done: signals, each once */

int lc_remote_fail(struct lc_remote* remote, int error, const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(remote->error, sizeof remote->error, format, arguments);
    va_end(arguments);
    const size_t used = strlen(remote->error);
    if (error) snprintf(remote->error + used, sizeof remote->error - used, ": %s", strerror(error));
    return 0;
}

int lc_remote_read(struct lc_remote* remote, uintptr_t address, void* out, size_t size) {
    const ssize_t done = pread(remote->mem, out, size, (off_t)address);
    if (done != (ssize_t)size)
        return lc_remote_fail(remote, done < 0 ? errno : EIO, "cannot read %zu bytes at %#lx of process %d", size,
                              (unsigned long)address, remote->pid);
    return 1;
}

int lc_remote_write(struct lc_remote* remote, uintptr_t address, const void* bytes, size_t size) {
    const ssize_t done = pwrite(remote->mem, bytes, size, (off_t)address);
    if (done != (ssize_t)size)
        return lc_remote_fail(remote, done < 0 ? errno : EIO, "cannot write %zu bytes at %#lx of process %d", size,
                              (unsigned long)address, remote->pid);
    return 1;
}

int lc_remote_open(struct lc_remote* remote, pid_t pid) {
    memset(remote, 0, sizeof *remote);
    remote->pid = pid;
    remote->mem = -1;
    if (ptrace(PTRACE_GETREGS, pid, 0, &remote->saved) != 0)
        return lc_remote_fail(remote, errno, "cannot read the registers of process %d", pid);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", pid);
    remote->mem = open(path, O_RDWR | O_CLOEXEC);
    if (remote->mem < 0) return lc_remote_fail(remote, errno, "cannot open %s", path);
    static const unsigned char syscall_code[2] = {0x0f, 0x05};
    if (!lc_remote_read(remote, remote->saved.rip, remote->saved_code, sizeof remote->saved_code) ||
        !lc_remote_write(remote, remote->saved.rip, syscall_code, sizeof syscall_code))
        return 0;
    remote->code_replaced = 1;
    return 1;
}

/* Single-steps over the syscall instruction at `at`: 1 once it ran. */
static int step_over(struct lc_remote* remote, uintptr_t at) {
    for (int step = 0; step < SINGLE_STEPS; ++step) {
        if (ptrace(PTRACE_SINGLESTEP, remote->pid, 0, 0) != 0)
            return lc_remote_fail(remote, errno, "cannot single-step process %d", remote->pid);
        int status = 0;
        if (waitpid(remote->pid, &status, __WALL) != remote->pid)
            return lc_remote_fail(remote, errno, "cannot wait for process %d", remote->pid);
        if (!WIFSTOPPED(status)) return lc_remote_fail(remote, 0, "process %d ended while patched", remote->pid);
        const int signal = WSTOPSIG(status);
        if (signal == SIGTRAP && (status >> 16) == 0) return 1;
        /* Another signal stopped it (held back: resent once it is let go) or a group stop. */
        if ((status >> 16) == 0 && signal > 0 && signal < 64) remote->signals |= UINT64_C(1) << signal;
        struct user_regs_struct now;
        if (ptrace(PTRACE_GETREGS, remote->pid, 0, &now) != 0)
            return lc_remote_fail(remote, errno, "cannot read the registers of process %d", remote->pid);
        if (now.rip == at + 2) return 1; /* the step's own trap came second */
    }
    return lc_remote_fail(remote, 0, "process %d did not run the injected system call", remote->pid);
}

int lc_remote_syscall(struct lc_remote* remote, long* result, long number, long a, long b, long c, long d, long e,
                      long f) {
    struct user_regs_struct regs = remote->saved;
    regs.rax = (unsigned long)number;
    regs.orig_rax = (unsigned long)-1; /* no system call to restart */
    regs.rdi = (unsigned long)a;
    regs.rsi = (unsigned long)b;
    regs.rdx = (unsigned long)c;
    regs.r10 = (unsigned long)d;
    regs.r8 = (unsigned long)e;
    regs.r9 = (unsigned long)f;
    if (ptrace(PTRACE_SETREGS, remote->pid, 0, &regs) != 0)
        return lc_remote_fail(remote, errno, "cannot set the registers of process %d", remote->pid);
    if (!step_over(remote, remote->saved.rip)) return 0;
    if (ptrace(PTRACE_GETREGS, remote->pid, 0, &regs) != 0)
        return lc_remote_fail(remote, errno, "cannot read the registers of process %d", remote->pid);
    *result = (long)regs.rax;
    return 1;
}

int lc_remote_close(struct lc_remote* remote, uintptr_t resume_at) {
    int ok = 1;
    if (remote->code_replaced)
        ok = lc_remote_write(remote, remote->saved.rip, remote->saved_code, sizeof remote->saved_code);
    remote->code_replaced = 0;
    struct user_regs_struct regs = remote->saved;
    if (resume_at) regs.rip = resume_at;
    if (ptrace(PTRACE_SETREGS, remote->pid, 0, &regs) != 0)
        ok = lc_remote_fail(remote, errno, "cannot restore the registers of process %d", remote->pid);
    if (remote->mem >= 0) close(remote->mem);
    remote->mem = -1;
    return ok;
}

void lc_remote_resend(const struct lc_remote* remote) {
    for (int signal = 1; signal < 64; ++signal)
        if (remote->signals & (UINT64_C(1) << signal)) kill(remote->pid, signal);
}
