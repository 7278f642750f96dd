/* Waits until an absolute time of a moved clock, interposed (clockshift.c):
 * the deadline the program computed on its (moved) clock is turned into the
 * real time at which its clock reaches it (lc_real_deadline), and the real
 * function waits for that. Without this a program whose monotonic clock was
 * moved 2 s forward would wait 2 s too long in every timed wait (the JVM's
 * sleeps and parks, libstdc++'s wait_until on steady_clock), and one whose
 * clock runs slow would wait less and less.
 *
 * Not covered (docs/nemesis.md, "The clock library"): sem_timedwait,
 * pthread_mutex_timedlock, timerfd and POSIX timers with absolute times,
 * and any wait the program makes with a raw system call. Relative waits
 * (nanosleep, poll, epoll) last their real duration, whatever the rate. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>

#include "clock_source.h"
#include "raw_syscall.h"

#define EXPORT __attribute__((visibility("default")))

typedef int (*clockwait_fn)(pthread_cond_t*, pthread_mutex_t*, clockid_t, const struct timespec*);
typedef int (*timedwait_fn)(pthread_cond_t*, pthread_mutex_t*, const struct timespec*);

/* The C library's own function: looked up at the first wait, never on the time path. */
static void* next_function(void** slot, const char* name, const char* version) {
    void* found = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!found) {
        found = version ? dlvsym(RTLD_NEXT, name, version) : dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, found, __ATOMIC_RELEASE);
    }
    return found;
}

/* The clock a condition variable waits on: glibc keeps it in bit 1 of __wrefs
 * (nptl/pthread_cond_common.c: 0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC). */
static clockid_t condition_clock(const pthread_cond_t* cond) {
    return (cond->__data.__wrefs & 2) ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

EXPORT int pthread_cond_clockwait(pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock,
                                  const struct timespec* deadline) {
    static void* next;
    const clockwait_fn real_wait = __extension__(clockwait_fn) next_function(&next, "pthread_cond_clockwait", 0);
    struct timespec real;
    return real_wait(cond, mutex, clock, lc_real_deadline(clock, deadline, &real) ? &real : deadline);
}

EXPORT int pthread_cond_timedwait(pthread_cond_t* cond, pthread_mutex_t* mutex, const struct timespec* deadline) {
    static void* next;
    const timedwait_fn real_wait =
        __extension__(timedwait_fn) next_function(&next, "pthread_cond_timedwait", "GLIBC_2.3.2");
    struct timespec real;
    return real_wait(cond, mutex, lc_real_deadline(condition_clock(cond), deadline, &real) ? &real : deadline);
}

EXPORT int clock_nanosleep(clockid_t clock, int flags, const struct timespec* request, struct timespec* remaining) {
    struct timespec real;
    if ((flags & TIMER_ABSTIME) && lc_real_deadline(clock, request, &real)) request = &real;
    return (int)-lc_syscall6(SYS_clock_nanosleep, clock, flags, (long)request, (long)remaining, 0, 0);
}
