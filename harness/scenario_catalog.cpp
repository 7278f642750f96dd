#include "harness/scenario_catalog.hpp"

#include <algorithm>

#include <fmt/format.h>

#ifndef LOCKCHECK_SOURCE_DIR
#define LOCKCHECK_SOURCE_DIR "."
#endif

namespace lockcheck {

std::filesystem::path default_scenarios_dir() {
    std::error_code ec;
    if (std::filesystem::is_directory("scenarios", ec)) return "scenarios";
    return std::filesystem::path(LOCKCHECK_SOURCE_DIR) / "scenarios";
}

std::vector<ScenarioEntry> load_scenarios(const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw SpecError("scenarios directory " + dir.string() + " does not exist");
    std::vector<ScenarioEntry> entries;
    for (const auto& file : std::filesystem::directory_iterator(dir, ec)) {
        if (!file.is_regular_file() || file.path().extension() != ".json") continue;
        ScenarioEntry entry{file.path(), std::nullopt, ""};
        try {
            entry.spec = read_spec(file.path());
        } catch (const SpecError& e) {
            entry.error = e.what();
        }
        entries.push_back(std::move(entry));
    }
    if (ec) throw SpecError("scenarios directory " + dir.string() + ": " + ec.message());
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path.filename() < b.path.filename(); });
    return entries;
}

bool has_label(const Spec& spec, const std::string& label) {
    return std::find(spec.labels.begin(), spec.labels.end(), label) != spec.labels.end();
}

std::string one_line(const std::string& description, std::size_t width) {
    std::string line = description.substr(0, description.find(". ") == std::string::npos ? description.size()
                                                                                           : description.find(". ") + 1);
    if (line.size() > width) {
        std::size_t cut = width - 3;
        while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
        line = line.substr(0, cut) + "...";
    }
    return line;
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
        text += fmt::format("  {:<30} {:<10} {}\n", name, labels, one_line(entry.spec->description, 76));
    }
    return text;
}

}  // namespace lockcheck
