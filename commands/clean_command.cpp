#include "commands/clean_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

#include "run/dead_runs.hpp"
#include "run/exit_codes.hpp"

namespace lockcheck {

int clean_command() {
    const auto report = clean_dead_runs();
    for (const auto& name : report.removed) std::printf("removed %s\n", name.c_str());
    std::printf("cleaned %zu dead run(s); left %zu live run(s) alone\n", report.dead_runs.size(),
                report.alive_runs.size());
    return exit_code::kValid;
}

void register_clean(CommandLine& line) {
    auto* clean = line.app.add_subcommand("clean", "Remove what runs that died left behind (never touches a live run)");
    on_chosen(*clean, line, [] { return clean_command(); });
}

}  // namespace lockcheck
