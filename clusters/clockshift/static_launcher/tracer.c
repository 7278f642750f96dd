/* The clock launcher's tracer (tracer.h). */
#define _GNU_SOURCE
#include "tracer.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "remote_process.h"
#include "stub_image.h"

#define PAGE 4096UL
#define MAX_VDSO_SIZE (64 * PAGE)

/* The target's [vdso] mapping, from /proc/PID/maps. 1, or 0 when it has none. */
static int find_vdso(pid_t pid, uintptr_t* start, uintptr_t* end) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/maps", pid);
    FILE* maps = fopen(path, "re");
    if (!maps) return 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, maps))
        if (strstr(line, "[vdso]") && sscanf(line, "%" SCNxPTR "-%" SCNxPTR, start, end) == 2) found = 1;
    fclose(maps);
    return found && *end > *start && *end - *start <= MAX_VDSO_SIZE;
}

/* The target's addresses of the vDSO's time functions (0: it has not that
 * one), found in a copy of its vDSO. 1, or 0 with remote->error set. */
static int find_vdso_functions(struct lc_remote* remote, uintptr_t functions[LC_VDSO_FUNCTIONS][2]) {
    uintptr_t start = 0, end = 0;
    if (!find_vdso(remote->pid, &start, &end)) return lc_remote_fail(remote, 0, "process %d has no vDSO", remote->pid);
    unsigned char* copy = malloc(end - start);
    struct lc_vdso_image image;
    int ok = copy && lc_remote_read(remote, start, copy, end - start);
    if (ok && !lc_vdso_image_open((uintptr_t)copy, &image))
        ok = lc_remote_fail(remote, 0, "the vDSO of process %d has no symbol table", remote->pid);
    for (int f = 0; ok && f < LC_VDSO_FUNCTIONS; ++f)
        for (int alias = 0; alias < 2; ++alias) {
            const uintptr_t at = lc_vdso_image_function(&image, lc_vdso_names[f][alias]);
            functions[f][alias] = at ? start + (at - (uintptr_t)copy) : 0;
        }
    free(copy);
    if (ok && !functions[LC_VDSO_CLOCK_GETTIME][0] && !functions[LC_VDSO_CLOCK_GETTIME][1])
        ok = lc_remote_fail(remote, 0, "the vDSO of process %d has no clock_gettime", remote->pid);
    return ok;
}

/* Maps the stub into the target, fills in its variables and makes its code
 * read+exec. Its address in `base`. 1, or 0 with remote->error set. */
static int install_stub(struct lc_remote* remote, const char* clock_file, uintptr_t* base) {
    const struct lc_stub_layout* layout = &lc_stub_layout;
    const size_t map_size = (layout->map_size + PAGE - 1) & ~(PAGE - 1);
    long at = 0;
    if (!lc_remote_syscall(remote, &at, SYS_mmap, 0, (long)map_size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        return 0;
    if (at <= 0 && at > -4096) return lc_remote_fail(remote, at ? (int)-at : EFAULT, "mmap in process %d", remote->pid);
    *base = (uintptr_t)at;
    const int tracer = getpid();
    const uintptr_t entry = remote->saved.rip;
    const size_t path_size = strlen(clock_file) + 1;
    if (path_size > LC_STUB_PATH_SIZE)
        return lc_remote_fail(remote, 0, "the clock file's path is longer than %d bytes", LC_STUB_PATH_SIZE - 1);
    if (!lc_remote_write(remote, *base, lc_stub_image, layout->image_size) ||
        !lc_remote_write(remote, *base + layout->path, clock_file, path_size) ||
        !lc_remote_write(remote, *base + layout->tracer, &tracer, sizeof tracer) ||
        !lc_remote_write(remote, *base + layout->entry, &entry, sizeof entry))
        return 0;
    long rc = 0;
    if (!lc_remote_syscall(remote, &rc, SYS_mprotect, (long)*base, (long)layout->data_offset, PROT_READ | PROT_EXEC, 0,
                           0, 0))
        return 0;
    return rc == 0 || lc_remote_fail(remote, (int)-rc, "mprotect in process %d", remote->pid);
}

/* Installs the stub, then writes the jumps to it over the vDSO's functions. */
static int patch(struct lc_remote* remote, const char* clock_file, uintptr_t* base) {
    uintptr_t functions[LC_VDSO_FUNCTIONS][2];
    if (!find_vdso_functions(remote, functions) || !install_stub(remote, clock_file, base)) return 0;
    for (int f = 0; f < LC_VDSO_FUNCTIONS; ++f)
        for (int alias = 0; alias < 2; ++alias) {
            if (!functions[f][alias] || (alias == 1 && functions[f][1] == functions[f][0])) continue;
            unsigned char code[LC_JUMP_SIZE];
            lc_jump_code(*base + lc_stub_layout.entries[f], code);
            if (!lc_remote_write(remote, functions[f][alias], code, sizeof code)) return 0;
        }
    return 1;
}

/* Resumes `target` from a stop, passing on the signal of a signal-delivery
 * stop (a group stop stays a stop, as without a tracer). `request`:
 * PTRACE_CONT, or PTRACE_SYSCALL to stop at the end of the system call. */
static void pass_on(pid_t target, int status, enum __ptrace_request request) {
    if ((status >> 16) == PTRACE_EVENT_STOP)
        ptrace(PTRACE_LISTEN, target, 0, 0);
    else
        ptrace(request, target, 0, (void*)(intptr_t)((status >> 16) ? 0 : WSTOPSIG(status)));
}

/* Waits until `target` returns from its exec, stopped there (a
 * syscall-exit-stop: at the exec's own stop the kernel has still to write
 * execve's result over the registers an injected system call needs). 1, or
 * 0 when it ended first. */
static int await_exec(pid_t target) {
    int exec_seen = 0;
    for (;;) {
        int status = 0;
        if (waitpid(target, &status, __WALL) != target || !WIFSTOPPED(status)) return 0;
        if (exec_seen && WSTOPSIG(status) == (SIGTRAP | 0x80)) return 1;
        if ((status >> 16) == PTRACE_EVENT_EXEC) {
            exec_seen = 1;
            ptrace(PTRACE_SETOPTIONS, target, 0, (void*)(intptr_t)(PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD));
        }
        pass_on(target, status, exec_seen ? PTRACE_SYSCALL : PTRACE_CONT);
    }
}

int lc_run_tracer(pid_t target, int go_fd, int ready_fd, const char* clock_file) {
    char byte = 0;
    if (read(go_fd, &byte, 1) != 1) return 1; /* the launcher is gone */
    close(go_fd);
    const int refused = ptrace(PTRACE_SEIZE, target, 0, (void*)(intptr_t)PTRACE_O_TRACEEXEC) == 0 ? 0 : errno;
    if (write(ready_fd, &refused, sizeof refused) != sizeof refused || refused) return 1;
    close(ready_fd);
    if (!await_exec(target)) return 0; /* the exec failed and the launcher said why */
    struct lc_remote remote;
    uintptr_t base = 0;
    int ok = lc_remote_open(&remote, target) && patch(&remote, clock_file, &base);
    char error[sizeof remote.error];
    memcpy(error, remote.error, sizeof error);
    ok = lc_remote_close(&remote, ok ? base + lc_stub_layout.resume : 0) && ok;
    if (!ok) {
        fprintf(stderr, "%s: cannot patch the clock of process %d: %s\n", LC_LAUNCHER_NAME, target,
                error[0] ? error : remote.error);
        kill(target, SIGKILL);
        return 1;
    }
    /* From here the target runs lc_stub_resume, which waits for this process to end. */
    ptrace(PTRACE_DETACH, target, 0, 0);
    lc_remote_resend(&remote);
    return 0;
}
