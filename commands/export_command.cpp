#include "commands/export_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>

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

}  // namespace lockcheck
