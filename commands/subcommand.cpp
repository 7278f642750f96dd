#include "commands/subcommand.hpp"

#include <CLI/CLI.hpp>

#include "run/interrupts.hpp"
#include "run/run.hpp"

namespace lockcheck {

void on_chosen(CLI::App& subcommand, CommandLine& line, std::function<int()> action) {
    subcommand.callback([&line, action = std::move(action)] { line.chosen = action; });
}

void add_store_flag(CLI::App& subcommand, std::string& store, const std::string& description) {
    subcommand.add_option("--store", store, description)->capture_default_str();
}

int with_run_options(const std::filesystem::path& store, bool stop_on_decided,
                     const std::function<int(const RunOptions&)>& command) {
    InterruptWatcher interrupts;
    RunOptions options;
    options.store = store;
    options.self_exe = std::filesystem::read_symlink("/proc/self/exe");
    options.interrupted = interrupts.interrupted();
    options.stop_on_decided = stop_on_decided;
    return command(options);
}

}  // namespace lockcheck
