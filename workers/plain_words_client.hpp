// A client command (spec client_cmd) that is only words: a program and its
// arguments with no shell syntax, so it can run without a shell. A run whose
// workers' clocks move starts such a command through the clock launcher
// (workers/worker_launch.hpp), which reaches a statically linked client (a
// Go client built without cgo) where LD_PRELOAD does not; a command that needs
// the shell (quotes, `VAR=1 cmd`, `cd d && cmd`, `$HOME`, globs) keeps
// running as `/bin/sh -c CMD`, and reaches only dynamically linked programs.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lockcheck {

/// The words of `command` split at spaces and tabs, when every word is made
/// of letters, digits and `_ . / : , + @ % -` (and `=` after the first word:
/// `--ttl=5`); a leading `exec` is dropped (the launcher execs the program
/// itself). nullopt when it holds anything else, no word, or a first word
/// that is a shell builtin or reserved word (`cd`, `export`, `true`, ...),
/// which only a shell can run.
std::optional<std::vector<std::string>> plain_command_words(const std::string& command);

}  // namespace lockcheck
