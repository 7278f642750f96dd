#include "commands/check_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "run/checked_history.hpp"
#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "run/stored_history.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {
namespace {

/// What a run directory's own files add to its check: the run's figures from
/// the results.json it has (and whether the scenario's expectation applied),
/// its spec and the expectation in spec.json.
CheckContext stored_context(const std::filesystem::path& run_dir) {
    CheckContext context;
    context.run_dir = run_dir;
    const auto previous = read_json_or_null(run_dir / "results.json");
    if (previous.is_object() && previous.contains("run")) context.run = previous["run"];
    if (previous.is_object() && previous.contains("expectation") && previous["expectation"].is_object() &&
        previous["expectation"].value("applies", nlohmann::json(true)) == false &&
        previous["expectation"].contains("reason") && previous["expectation"]["reason"].is_string())
        context.expectation_not_applicable = previous["expectation"]["reason"].get<std::string>();
    context.spec = read_json_or_null(run_dir / "spec.json");
    if (context.spec.is_object() && context.spec.contains("expect")) {
        try {
            context.expect = spec_from_json(context.spec, (run_dir / "spec.json").string()).expect;
        } catch (const SpecError&) {
            // an old or edited spec: check without the expectation
        }
    }
    return context;
}

}  // namespace

int check_command(const std::filesystem::path& path) {
    return exit_code_of([&] {
        const auto history_path = history_file_of(path);
        const History history = read_stored_history(history_path);
        const CheckContext context = std::filesystem::is_directory(path) ? stored_context(path) : CheckContext{};
        CheckedHistory checked;
        try {
            checked = check_history(history, context);
        } catch (const HistoryError& e) {  // ops that do not pair: the message names the op, this the file
            throw HistoryError(history_path.string() + ": " + e.what());
        }
        std::printf("  %zu ops checked from %s\n", history.size(), history_path.c_str());
        return exit_code::for_verdict(checked.report.valid);
    });
}

void register_check(CommandLine& line) {
    auto path = std::make_shared<std::string>();
    auto* check =
        line.app.add_subcommand("check", "Rerun every checker on a run directory or a history.jsonl, offline");
    check->add_option("path", *path, "Run directory or history.jsonl")->required()->check(CLI::ExistingPath);
    on_chosen(*check, line, [path] { return check_command(*path); });
}

}  // namespace lockcheck
