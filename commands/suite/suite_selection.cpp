#include "commands/suite/suite_selection.hpp"

#include <fmt/format.h>

#include <set>
#include <system_error>

#include "commands/suite/suite_command.hpp"
#include "core/regular_file.hpp"
#include "spec/scenario_catalog.hpp"

namespace lockcheck {

Selection select_scenarios(const std::string& selector) {
    std::error_code ec;
    if (!selector.empty() && std::filesystem::is_regular_file(selector, ec)) return {selector, {selector}};
    if (const auto type = std::filesystem::status(selector, ec).type();  // a link loop, a FIFO: no label either
        !selector.empty() && type != std::filesystem::file_type::not_found &&
        type != std::filesystem::file_type::directory)
        throw SpecError(fmt::format("suite: '{}' {}", selector, not_a_regular_file(selector).value_or("")));
    const bool is_dir = !selector.empty() && std::filesystem::is_directory(selector, ec);
    const auto dir = is_dir ? std::filesystem::path(selector) : default_scenarios_dir();
    Selection selection{is_dir ? dir.string() : selector.empty() ? "all of " + dir.string() : "label " + selector, {}};
    std::set<std::string> labels;
    for (const auto& entry : load_scenarios(dir)) {
        if (!entry.spec) throw SpecError(entry.error);
        labels.insert(entry.spec->labels.begin(), entry.spec->labels.end());
        if (selector.empty() || is_dir || has_label(*entry.spec, selector)) selection.files.push_back(entry.path);
    }
    if (selection.files.empty() && is_dir)
        throw SpecError(fmt::format("suite: directory '{}' holds no spec file (*.json)", selector));
    if (selection.files.empty()) {
        std::string known;
        for (const auto& l : labels) known += (known.empty() ? "" : ", ") + l;
        throw SpecError(fmt::format("suite: '{}' is no directory, spec file or label of a scenario in {} (labels: {})",
                                    selector, dir.string(), known.empty() ? "none" : known));
    }
    return selection;
}

Selection slice(Selection selection, SuiteShard shard) {
    if (shard.count == 1) return selection;
    std::vector<std::filesystem::path> files;
    for (const auto i : shard_positions(selection.files.size(), shard)) files.push_back(selection.files[i]);
    return {fmt::format("{}, shard {}/{}", selection.description, shard.index, shard.count), std::move(files)};
}

std::pair<std::vector<Spec>, std::vector<bool>> read_selected_specs(const Selection& selection) {
    std::vector<Spec> specs;
    std::vector<bool> alone;
    for (const auto& file : selection.files) {
        specs.push_back(read_spec(file));
        try {  // every spec is checked before anything runs; a refusal names its file
            validate(specs.back());
        } catch (const SpecError& e) {
            throw SpecError(file.string() + ": " + e.what());
        }
        alone.push_back(has_label(specs.back(), kAloneLabel));
    }
    return {std::move(specs), std::move(alone)};
}

}  // namespace lockcheck
