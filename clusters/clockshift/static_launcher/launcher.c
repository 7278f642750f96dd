/* lockcheck-clock-launch -- PROGRAM [ARGUMENT...]
 *
 * Becomes PROGRAM (execve: the same process, the PID the harness started
 * and will signal), with its clocks moved by the clock file named by
 * LOCKCHECK_CLOCK_OFFSET_FILE (clusters/clockshift/clock_record.h), as the
 * clock library moves them for the programs LD_PRELOAD reaches.
 *
 * A dynamically linked PROGRAM (or a script) is simply exec'd: the clock
 * library in LD_PRELOAD moves its clocks. A statically linked one ignores
 * LD_PRELOAD, so before the exec the launcher forks a tracer (tracer.h),
 * which PTRACE_SEIZEs the launcher and, at the exec stop, maps the stub
 * (stub_image.h: the clock library's time source compiled freestanding)
 * into the new program, writes jumps to it over the vDSO's clock_gettime,
 * gettimeofday and time, and lets go. The program's first instruction is
 * then the stub's lc_stub_resume, which reaps the tracer and jumps to the
 * program's entry: nothing is left, no process, no zombie, no tracer.
 *
 * Exit status (the program's own once it runs): 2 bad usage; 126 the clock
 * of a static program cannot be patched (no vDSO, ptrace refused), or
 * PROGRAM's clock cannot be moved at all (set-user-ID or set-group-ID, a
 * script whose interpreter is static: program_kind.h); one line on stderr
 * says why; the program never runs unpatched, since the harness would
 * believe its clock moved; 127 PROGRAM cannot be found or exec'd.
 * Without LOCKCHECK_CLOCK_OFFSET_FILE every program is simply exec'd. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../vdso_image.h"
#include "program_kind.h"
#include "stub_image.h"
#include "tracer.h"

static int exec_failed(const char* program) {
    fprintf(stderr, "%s: cannot run %s: %s\n", LC_LAUNCHER_NAME, program, strerror(errno));
    return 127;
}

static int cannot_patch(const char* program, const char* why) {
    fprintf(stderr, "%s: cannot move the clock of the statically linked %s: %s\n", LC_LAUNCHER_NAME, program, why);
    return 126;
}

/* Starts the tracer (its PID in `tracer_pid`) and waits until it traces
 * this process. 1, or 0 with the reason in `why` (the tracer is gone then). */
static int start_tracer(const char* clock_file, pid_t* tracer_pid, char* why, size_t why_size) {
    int go[2], ready[2];
    if (pipe2(go, O_CLOEXEC) != 0) return snprintf(why, why_size, "pipe: %s", strerror(errno)), 0;
    if (pipe2(ready, O_CLOEXEC) != 0)
        return snprintf(why, why_size, "pipe: %s", strerror(errno)), close(go[0]), close(go[1]), 0;
    const pid_t parent = getpid();
    const pid_t tracer = fork();
    if (tracer < 0) return snprintf(why, why_size, "fork: %s", strerror(errno)), 0;
    if (tracer == 0) {
        close(go[1]);
        close(ready[0]);
        _exit(lc_run_tracer(parent, go[0], ready[1], clock_file));
    }
    close(go[0]);
    close(ready[1]);
    /* Yama (ptrace_scope 1) lets a process trace only its descendants, unless its target names it. */
    prctl(PR_SET_PTRACER, (unsigned long)tracer, 0, 0, 0);
    int answer = -1;
    const int answered = write(go[1], "1", 1) == 1 && read(ready[0], &answer, sizeof answer) == sizeof answer;
    close(go[1]);
    close(ready[0]);
    prctl(PR_SET_PTRACER, 0, 0, 0, 0); /* the tracer holds on; nobody else needs the exception */
    if (answered && answer == 0) {
        *tracer_pid = tracer;
        return 1;
    }
    waitpid(tracer, 0, 0);
    snprintf(why, why_size, "ptrace refused: %s", answered ? strerror(answer) : "its tracer ended");
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 3 || strcmp(argv[1], "--") != 0) {
        fprintf(stderr, "usage: %s -- PROGRAM [ARGUMENT...] (LOCKCHECK_CLOCK_OFFSET_FILE names the clock file)\n",
                LC_LAUNCHER_NAME);
        return 2;
    }
    char** program = argv + 2;
    const char* clock_file = getenv("LOCKCHECK_CLOCK_OFFSET_FILE");
    char path[PATH_MAX];
    const int found = clock_file && lc_find_program(program[0], path, sizeof path);
    const char* unmovable = found ? lc_unmovable_reason(path) : NULL;
    if (unmovable) {
        fprintf(stderr, "%s: cannot move the clock of %s: %s\n", LC_LAUNCHER_NAME, path, unmovable);
        return 126;
    }
    if (!found || !lc_is_static_program(path)) {
        execvp(program[0], program);
        return exec_failed(program[0]);
    }
    /* The vDSO is the same for every process of this kernel: this one's tells whether there is one to patch. */
    struct lc_vdso_image vdso;
    if (!lc_vdso_image_open((uintptr_t)getauxval(AT_SYSINFO_EHDR), &vdso) ||
        (!lc_vdso_image_function(&vdso, lc_vdso_names[LC_VDSO_CLOCK_GETTIME][0]) &&
         !lc_vdso_image_function(&vdso, lc_vdso_names[LC_VDSO_CLOCK_GETTIME][1])))
        return cannot_patch(path, "this kernel gives processes no vDSO with clock_gettime");
    if (strlen(clock_file) >= LC_STUB_PATH_SIZE)
        return cannot_patch(path, "the path in LOCKCHECK_CLOCK_OFFSET_FILE is too long for the stub");
    char why[256];
    pid_t tracer = -1;
    if (!start_tracer(clock_file, &tracer, why, sizeof why)) return cannot_patch(path, why);
    execv(path, program);
    const int status = exec_failed(path);
    kill(tracer, SIGKILL); /* it waits for an exec that will not come: reaped here, not left behind */
    waitpid(tracer, 0, 0);
    return status;
}
