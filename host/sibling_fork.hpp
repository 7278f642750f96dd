// Forking the calling process as a sibling: the new process is a child of the
// caller's parent, not of the caller (clone3 with CLONE_PARENT), and can be
// created straight into a cgroup v2 (CLONE_INTO_CGROUP). The fork server forks
// each worker this way (host/fork_server_process.hpp): one fork per worker,
// the controller's child from its first instruction, in its own cgroup without
// a migration, where a double fork costs a second fork, a process exit, an
// adoption and a cgroup move.
//
// glibc's fork() cannot pass these flags, so this is the clone3 system call
// itself, and it redoes for the new process what glibc's fork does for the
// child of a single-threaded process: the kernel writes the new TID into the
// thread's descriptor and clears it at exit (CLONE_CHILD_SETTID and
// CLONE_CHILD_CLEARTID on the address glibc registered with set_tid_address,
// read back with PR_GET_TID_ADDRESS), and the new process registers the
// thread's robust-mutex list again (set_robust_list: the kernel does not copy
// it). What it does not do is run pthread_atfork handlers, reset the C
// library's internal locks or reclaim other threads' stacks: it is for a
// single-threaded caller (no lock can be held by another thread) whose fork
// handlers the new process can do without. In `lockcheck worker
// --fork-server` (it forks before any client library is set up) the only ones
// are the child handlers the constructors of libp11-kit and libgnutls register
// (Debian 12, seen with gdb on __register_atfork): each bumps a counter by
// which that library notices, in a forked child, that its PKCS#11 sessions or
// its per-thread random generators came from the parent; the server has
// opened no such session and seeded no such generator (its only getrandom
// calls before serving are glibc malloc's tcache key and GnuTLS's 1-byte
// probe of the system call), so a worker has none to renew.
#pragma once

#include <sys/types.h>

namespace lockcheck {

/// Forks the calling process as a child of its parent, in the cgroup v2
/// directory open as `cgroup_dir` (an O_PATH fd will do; -1: the caller's own
/// cgroups). The new process's exit signal is the caller's own (SIGCHLD for a
/// process its parent spawned as lockcheck does). Returns 0 in the new
/// process and its PID in the caller, or -1 with errno set: ENOSYS when this
/// system cannot (no clone3, e.g. filtered by a seccomp profile, or no
/// PR_GET_TID_ADDRESS), else what clone3 said. Async-signal-safe.
pid_t fork_sibling(int cgroup_dir) noexcept;

/// True when fork_sibling failed with `error` because this kind of fork is not
/// possible here at all (ENOSYS; EPERM from a seccomp filter; E2BIG from a
/// kernel older than 5.7, whose clone3 has no cgroup field), not for one call.
bool sibling_fork_unsupported(int error) noexcept;

}  // namespace lockcheck
