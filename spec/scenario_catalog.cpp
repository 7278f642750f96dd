#include "spec/scenario_catalog.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/install_layout.hpp"
#include "core/regular_file.hpp"
#include "reports/text_columns.hpp"

#ifndef LOCKCHECK_SOURCE_DIR
#define LOCKCHECK_SOURCE_DIR "."
#endif

namespace lockcheck {

std::vector<std::filesystem::path> scenario_search_dirs() {
    std::vector<std::filesystem::path> dirs;
    const auto add = [&dirs](const std::filesystem::path& dir) {  // once: a build tree's two ways to its source
        const auto normal = dir.lexically_normal();
        if (std::find(dirs.begin(), dirs.end(), normal) == dirs.end()) dirs.push_back(normal);
    };
    add("scenarios");
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        add(self.parent_path().parent_path() / "scenarios");
        add(installed_data_dir(self) / "scenarios");
    }
    add(std::filesystem::path(LOCKCHECK_SOURCE_DIR) / "scenarios");
    return dirs;
}

std::filesystem::path default_scenarios_dir() {
    const auto dirs = scenario_search_dirs();
    std::error_code ec;
    for (const auto& dir : dirs)
        if (std::filesystem::is_directory(dir, ec)) return dir;
    return dirs.back();
}

std::filesystem::path find_scenario(const std::string& name_or_path) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(name_or_path, ec)) return name_or_path;
    if (name_or_path.empty() || name_or_path.find('/') != std::string::npos)
        throw SpecError("spec file " + name_or_path + " " + not_a_regular_file(name_or_path).value_or(""));
    const std::string stem =
        name_or_path.ends_with(".json") ? name_or_path.substr(0, name_or_path.size() - 5) : name_or_path;
    std::string searched;
    for (const auto& dir : scenario_search_dirs()) {
        const auto candidate = dir / (stem + ".json");
        if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
        searched += (searched.empty() ? "" : ", ") + dir.string();
    }
    throw SpecError("no spec file and no scenario named '" + name_or_path + "' (searched " + searched +
                    "; `lockcheck list` shows the scenarios)");
}

std::vector<ScenarioEntry> load_scenarios(const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        throw SpecError("scenarios directory " + dir.string() + " does not exist");
    std::vector<ScenarioEntry> entries;
    for (const auto& file : std::filesystem::directory_iterator(dir, ec)) {
        // A directory named *.json is no spec; anything else named *.json (a link loop, a FIFO) is read_spec's to refuse.
        std::error_code type_ec;
        if (file.path().extension() != ".json" || file.is_directory(type_ec)) continue;
        ScenarioEntry entry{file.path(), std::nullopt, ""};
        try {
            entry.spec = read_spec(file.path());
        } catch (const SpecError& e) {
            entry.error = e.what();
        }
        entries.push_back(std::move(entry));
    }
    if (ec) throw SpecError("scenarios directory " + dir.string() + ": " + ec.message());
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.path.filename() < b.path.filename(); });
    return entries;
}

bool has_label(const Spec& spec, const std::string& label) {
    return std::find(spec.labels.begin(), spec.labels.end(), label) != spec.labels.end();
}

std::string first_sentence(const std::string& description) {
    const auto end = description.find(". ");
    return end == std::string::npos ? description : description.substr(0, end + 1);
}

std::string scenario_list_text(const std::filesystem::path& dir) {
    std::string text = fmt::format("scenarios ({}):\n", dir.string());
    std::vector<ScenarioEntry> entries;
    try {
        entries = load_scenarios(dir);
    } catch (const SpecError& e) {
        return text + "  none: " + e.what() + "\n";
    }
    for (const auto& entry : entries) {
        const auto name = entry.path.stem().string();
        if (!entry.spec) {
            text += fmt::format("  {:<34} (not a valid spec: {})\n", name, entry.error);
            continue;
        }
        std::string labels;
        for (const auto& l : entry.spec->labels) labels += (labels.empty() ? "[" : ",") + l;
        if (!labels.empty()) labels += "]";
        text += hanging_paragraph(fmt::format("  {:<30} {:<10} ", name, labels), 44,
                                  first_sentence(entry.spec->description));
    }
    return text;
}

}  // namespace lockcheck
