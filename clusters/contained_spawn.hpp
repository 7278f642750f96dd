// A Boost.Process handler that puts the child into a cgroup between fork and
// exec, before it can start anything of its own (clusters/process_cgroup.hpp).
// Only async-signal-safe calls run in the child: the path is prepared before
// the fork.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <boost/process/extend.hpp>
#include <cerrno>
#include <system_error>

namespace lockcheck {

/// Writes the calling process's PID into `procs_file`; false (errno set) when
/// it cannot. Async-signal-safe.
inline bool join_cgroup(const char* procs_file) {
    char digits[24];
    char* end = digits + sizeof digits;
    char* p = end;
    auto pid = static_cast<unsigned long>(::getpid());
    do {
        *--p = static_cast<char>('0' + pid % 10);
        pid /= 10;
    } while (pid > 0);
    const int fd = ::open(procs_file, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const auto length = end - p;
    const bool written = ::write(fd, p, static_cast<size_t>(length)) == length;
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return written;
}

/// Joins `procs_file` (a cgroup's cgroup.procs) in the child; nullptr: no
/// cgroup. When joining fails the child does not run: the spawn fails with
/// the reason.
struct JoinCgroup : boost::process::extend::handler {
    const char* procs_file = nullptr;

    template <typename Executor>
    void on_exec_setup(Executor& exec) const {
        if (procs_file == nullptr || join_cgroup(procs_file)) return;
        exec.set_error(std::error_code(errno, std::system_category()), "cannot join its cgroup");
        ::_exit(127);
    }
};

}  // namespace lockcheck
