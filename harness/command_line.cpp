#include "harness/command_line.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "commands/certify/certify_command.hpp"
#include "commands/check_command.hpp"
#include "commands/clean_command.hpp"
#include "commands/compare/compare_command.hpp"
#include "commands/export_command.hpp"
#include "commands/images_command.hpp"
#include "commands/index_command.hpp"
#include "commands/list_command.hpp"
#include "commands/run_command.hpp"
#include "commands/shrink/shrink_command.hpp"
#include "commands/suite/suite_command.hpp"
#include "commands/worker_command.hpp"
#include "run/exit_codes.hpp"

namespace lockcheck {
namespace {

/// Every subcommand, in the order --help lists them.
constexpr void (*kRegistrations[])(CommandLine&) = {
    register_run,    register_suite, register_compare, register_certify, register_shrink, register_check,
    register_export, register_index, register_list,    register_clean,   register_images, register_worker,
};

/// Throws a CLI::ParseError when the first argument names no subcommand: CLI11
/// itself would only say that one is required.
void require_known_subcommand(CLI::App& app, int argc, const char* const* argv) {
    if (argc < 2 || argv[1][0] == '-') return;
    std::string valid;
    for (const CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name() == argv[1]) return;
        if (!sub->get_group().empty()) valid += (valid.empty() ? "" : ", ") + sub->get_name();
    }
    throw CLI::ParseError(fmt::format("unknown subcommand '{}'; the subcommands are {}", argv[1], valid),
                          CLI::ExitCodes::ExtrasError);
}

}  // namespace

int lockcheck_main(int argc, const char* const* argv) {
    CLI::App app{"lockcheck: proves or disproves the safety of distributed locks on real servers"};
    app.require_subcommand(1);
    CommandLine line{app, argv, {}};
    for (const auto registration : kRegistrations) registration(line);
    try {
        require_known_subcommand(app, argc, argv);
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError&) {
        return report_failure(std::current_exception());
    }
    return line.chosen ? exit_code_of(line.chosen) : exit_code::kBadInput;
}

}  // namespace lockcheck
