// A Boost.Process handler that puts the child into a cgroup between fork and
// exec, before it can start anything of its own (clusters/process_cgroup.hpp).
// Only async-signal-safe calls run in the child: the path is prepared before
// the fork.
#pragma once

#include <unistd.h>

#include <boost/process/extend.hpp>
#include <cerrno>
#include <system_error>

#include "clusters/process_cgroup.hpp"

namespace lockcheck {

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
