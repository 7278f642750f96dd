// Runs short system commands (ip, iptables) and collects their output.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace lockcheck {

struct CommandResult {
    int exit_code = 0;
    std::string output;  ///< stdout and stderr together
};

class CommandError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Runs argv to completion. While a run is contained (run_containment.hpp)
/// the command runs in a cgroup of its own, and whatever it leaves running
/// is killed when it returns. Throws CommandError only if it cannot be started.
/// `input`: a file that becomes the command's stdin (empty: /dev/null).
CommandResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& input = {});

/// Runs argv and throws CommandError("`ip link add ...` failed: <its first
/// output line>") when it exits non-zero. Returns its output.
std::string run_checked(const std::vector<std::string>& argv);

/// The argv as a shell-like string, for messages.
std::string join_argv(const std::vector<std::string>& argv);

}  // namespace lockcheck
