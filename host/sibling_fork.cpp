#include "host/sibling_fork.hpp"

#include <linux/sched.h>  // clone_args, CLONE_INTO_CGROUP
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace lockcheck {

pid_t fork_sibling(int cgroup_dir) noexcept {
    // Where glibc keeps this thread's TID (its thread descriptor): fork has the
    // kernel write the child's TID there, and so must we.
    int* tid_address = nullptr;
    if (::prctl(PR_GET_TID_ADDRESS, &tid_address, 0, 0, 0) != 0 || tid_address == nullptr) {
        errno = ENOSYS;  // a kernel without CONFIG_CHECKPOINT_RESTORE
        return -1;
    }
    void* robust_list = nullptr;
    std::size_t robust_list_bytes = 0;
    if (::syscall(SYS_get_robust_list, 0, &robust_list, &robust_list_bytes) != 0) robust_list = nullptr;

    clone_args args{};
    args.flags = CLONE_PARENT | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
    args.child_tid = reinterpret_cast<std::uint64_t>(tid_address);
    args.exit_signal = 0;  // with CLONE_PARENT the kernel gives the child the caller's exit signal
    if (cgroup_dir >= 0) {
        args.flags |= CLONE_INTO_CGROUP;
        args.cgroup = static_cast<std::uint64_t>(cgroup_dir);
    }
    // No CLONE_VM: the child runs on a copy of this stack and returns from syscall() as from fork().
    const long pid = ::syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0 && robust_list != nullptr) ::syscall(SYS_set_robust_list, robust_list, robust_list_bytes);
    return static_cast<pid_t>(pid);
}

bool sibling_fork_unsupported(int error) noexcept { return error == ENOSYS || error == EPERM || error == E2BIG; }

}  // namespace lockcheck
