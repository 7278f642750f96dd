#include "commands/export_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "run/stored_history.hpp"
#include "reports/edn_export.hpp"

namespace lockcheck {

int export_edn_command(const std::filesystem::path& path, const std::optional<std::filesystem::path>& output) {
    return exit_code_of([&] {
        const auto history_path = history_file_of(path);
        const History history = read_stored_history(history_path);
        if (output && *output == "-") {
            write_edn(history, std::cout);
            return exit_code::kValid;
        }
        const auto target = output ? *output : std::filesystem::path(history_path).replace_extension(".edn");
        std::ofstream out(target);
        write_edn(history, out);
        out.close();
        if (!out) throw HarnessError("cannot write " + target.string());
        std::fprintf(stderr, "wrote %zu ops to %s\n", history.size(), target.c_str());
        return exit_code::kValid;
    });
}

namespace {

struct ExportFlags {
    std::string path;
    bool edn = false;
    std::optional<std::string> output;
};

}  // namespace

void register_export(CommandLine& line) {
    auto flags = std::make_shared<ExportFlags>();
    auto* export_cmd = line.app.add_subcommand("export", "Write a stored history in another tool's format");
    export_cmd->add_flag("--edn", flags->edn, "Jepsen's history.edn")->required();
    export_cmd->add_option("path", flags->path, "Run directory or history.jsonl")->required()->check(CLI::ExistingPath);
    export_cmd->add_option("-o,--output", flags->output,
                           "Output file (default: history.edn beside the history; - for stdout)");
    on_chosen(*export_cmd, line, [flags] {
        return export_edn_command(flags->path,
                                  flags->output ? std::optional<std::filesystem::path>(*flags->output) : std::nullopt);
    });
}

}  // namespace lockcheck
