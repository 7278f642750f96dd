// How a subcommand joins lockcheck's command line (harness/command_line.cpp):
// each subcommand has a registration function beside its command
// (register_run, register_suite, ...) that adds its CLI11 subcommand and its
// flags to the app, and a callback that, once the command line has parsed,
// chooses what runs: the command with the flags given. Main then runs the
// chosen action and exits with its code.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace lockcheck {

struct RunOptions;

/// The command line being built, and what it chose once parsed.
struct CommandLine {
    CLI::App& app;
    const char* const* argv;      ///< as main got it (a worker names its process from it)
    std::function<int()> chosen;  ///< set by the callback of the subcommand given; returns the exit code
};

/// Where run, suite, compare, certify, shrink and index put or find run
/// directories unless --store says otherwise.
inline const std::string kDefaultStore = "store";

/// Makes `action` what `line` runs when the command line names `subcommand`
/// (its CLI11 callback, called once the whole command line has parsed).
void on_chosen(CLI::App& subcommand, CommandLine& line, std::function<int()> action);

/// Adds `--store` to `subcommand`, into `store`, its default shown in --help.
void add_store_flag(CLI::App& subcommand, std::string& store, const std::string& description);

/// Runs `command` with the options of a run started from the command line:
/// runs go into `store`, workers start from this binary, an interrupt
/// (Ctrl-C) is watched for as long as it runs, and a scenario expecting
/// invalid stops once decided when `stop_on_decided` is set.
int with_run_options(const std::filesystem::path& store, bool stop_on_decided,
                     const std::function<int(const RunOptions&)>& command);

}  // namespace lockcheck
