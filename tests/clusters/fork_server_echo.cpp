// A stand-in for `lockcheck worker --fork-server` in tests/clusters/fork_server_test.cpp:
// it serves fork requests on its stdin (serve_forks); each forked worker
// renames itself "ARGV0 echo-worker" (with the ProcessTitle the server found,
// as lockcheck's workers do), writes
// "PID PARENT PROCESS-GROUP THREAD-STATE CGROUP" on its stdout, then
// echoes every line of its stdin until EOF and exits 0. THREAD-STATE is
// "thread-state-ok" when the C library's record of its thread is its own (the
// CPU clock of pthread_self() reads: glibc takes it from the TID it keeps for
// the thread) and a thread it starts runs and is joined, else what failed.
// CGROUP is its cgroup v2 path from /proc/self/cgroup ("-" when none).
//
//   fork_server_echo [--with-clone3]   serves as lockcheck's fork server does
//   fork_server_echo --without-clone3  the same under a seccomp filter that fails
//                                      clone3 with ENOSYS, as container runtimes'
//                                      default profiles do: the double-fork fallback
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "host/fork_server_process.hpp"
#include "host/process_title.hpp"

namespace {

/// clone3 fails with ENOSYS from now on, in this process and its children.
bool filter_out_clone3() {
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
    return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

std::string thread_state() {
    clockid_t clock{};
    timespec used{};
    if (const int error = ::pthread_getcpuclockid(::pthread_self(), &clock); error != 0)
        return std::string("pthread_getcpuclockid:") + std::strerror(error);
    if (::clock_gettime(clock, &used) != 0) return std::string("thread-clock:") + std::strerror(errno);
    bool ran = false;
    std::thread([&ran] { ran = true; }).join();
    return ran ? "thread-state-ok" : "thread-did-not-run";
}

std::string cgroup_v2_path() {
    std::ifstream cgroups("/proc/self/cgroup");
    for (std::string line; std::getline(cgroups, line);)
        if (line.rfind("0::", 0) == 0) return line.substr(3);
    return "-";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "--without-clone3" && !filter_out_clone3()) {
        std::cerr << "cannot install the seccomp filter: " << std::strerror(errno) << std::endl;
        return 3;
    }
    const lockcheck::ProcessTitle title(argv);
    if (const auto server_exit = lockcheck::serve_forks(STDIN_FILENO)) return *server_exit;
    title.set({argv[0], "echo-worker"});
    std::cout << ::getpid() << ' ' << ::getppid() << ' ' << ::getpgrp() << ' ' << thread_state() << ' '
              << cgroup_v2_path() << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) std::cout << line << std::endl;
    return 0;
}
