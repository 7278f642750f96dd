/* The clock launcher's tracer: a child of the launcher that patches the
 * launcher's process once it has become the static program (launcher.c). */
#ifndef LOCKCHECK_TRACER_H
#define LOCKCHECK_TRACER_H

#include <sys/types.h>

#define LC_LAUNCHER_NAME "lockcheck-clock-launch" /* what its messages start with */

/* Runs the tracer, in the child: waits for a byte on `go_fd` (the launcher
 * allowed it to trace), seizes `target` (its parent) with PTRACE_SEIZE and
 * writes an int on `ready_fd`: 0, or the errno of the refusal (it then
 * returns 1 and the launcher says why). Then waits for the target's exec,
 * installs the stub (stub_image.h) with the clock file `clock_file`, points
 * the vDSO's time functions at it and lets the target go at
 * lc_stub_resume, which reaps this process. Returns the tracer's exit
 * status: 0, or 1 (when the exec'd program could not be patched: after one
 * line on stderr and SIGKILL to it, which must not run with a clock the
 * harness believes it moves). */
int lc_run_tracer(pid_t target, int go_fd, int ready_fd, const char* clock_file);

#endif
