#include "commands/list_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

#include "clusters/runtimes/node_runtime_registry.hpp"
#include "clusters/topologies/topology_registry.hpp"
#include "nemesis/fault_registry.hpp"
#include "recipes/recipe_registry.hpp"
#include "reports/text_columns.hpp"
#include "run/exit_codes.hpp"
#include "spec/scenario_catalog.hpp"

namespace lockcheck {
namespace {

constexpr std::size_t kNameColumn = 25;    ///< where descriptions start
constexpr std::size_t kOptionColumn = 29;  ///< ... and an option's meaning

/// One paragraph per option under its recipe or fault: name, default (when
/// it has one), meaning.
void print_options(const std::vector<OptionDescriptor>& options) {
    for (const auto& option : options) {
        const std::string shown_default =
            option.default_value.is_null() ? "" : "default " + option.default_value.dump() + ": ";
        std::printf(
            "%s", hanging_paragraph("      " + option.name, kOptionColumn, shown_default + option.description).c_str());
    }
}

}  // namespace

int list_command() {
    std::printf("recipes:\n");
    for (const auto& r : recipe_descriptors()) {
        std::printf("%s", hanging_paragraph("  " + r.name, kNameColumn, r.description).c_str());
        print_options(r.options);
    }
    std::printf("topologies:\n");
    for (const auto& t : topology_descriptors())
        std::printf("%s", hanging_paragraph("  " + t.name, kNameColumn, t.description).c_str());
    std::printf("runtimes:\n");
    for (const auto& r : node_runtime_descriptors())
        std::printf("%s", hanging_paragraph("  " + r.name, kNameColumn, r.description).c_str());
    std::printf("nemeses:\n");
    for (const auto& f : fault_descriptors()) {
        std::printf("%s", hanging_paragraph("  " + f.name, kNameColumn, f.description).c_str());
        print_options(f.options);
    }
    std::printf("%s", scenario_list_text(default_scenarios_dir()).c_str());
    return exit_code::kValid;
}

void register_list(CommandLine& line) {
    auto* list = line.app.add_subcommand("list", "List recipes, topologies, nemeses and scenarios");
    on_chosen(*list, line, [] { return list_command(); });
}

}  // namespace lockcheck
