#include "commands/compare/compare_grid.hpp"

#include <algorithm>
#include <set>

#include "core/json_text.hpp"
#include "core/ttl_time.hpp"

namespace lockcheck {
namespace {

/// `text` split at the commas outside [...], {...} and "..." (a JSON string: \" does not end it).
std::vector<std::string> split_top_level(const std::string& text) {
    std::vector<std::string> parts;
    std::string part;
    int depth = 0;
    JsonStringScanner scanner;
    for (char c : text) {
        const bool structure = scanner.outside_string(c);
        if (structure && (c == '[' || c == '{')) ++depth;
        if (structure && (c == ']' || c == '}')) --depth;
        if (structure && c == ',' && depth == 0) {
            parts.push_back(part);
            part.clear();
        } else {
            part += c;
        }
    }
    parts.push_back(part);
    return parts;
}

nlohmann::json parse_value(const std::string& text) {
    try {
        return parse_json_bounded(text);
    } catch (const JsonInputError&) {  // not JSON (or absurdly deep): the value is the text itself
        return text;
    }
}

/// A multiple of the lease ("2xttl") resolved against the cell's own ttl_ms: " (2000 ms)"; else "".
std::string resolved_ms(const nlohmann::json& value, std::int64_t ttl_ms) {
    if (!value.is_string()) return "";
    const auto text = value.get<std::string>();
    const auto x = text.find("xttl");
    if (x == std::string::npos || x == 0 || x + 4 != text.size()) return "";
    try {
        return " (" + std::to_string(TtlTime{0, std::stod(text.substr(0, x))}.resolve(ttl_ms)) + " ms)";
    } catch (const std::exception&) {  // the spec rejected it already; nothing to resolve
        return "";
    }
}

}  // namespace

Vary parse_vary(const std::string& option) {
    const auto eq = option.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == option.size())
        throw SpecError("--vary '" + option + "' must be FIELD=V1,V2,...");
    Vary vary{option.substr(0, eq), {}};
    for (const auto& value : split_top_level(option.substr(eq + 1))) {
        if (value.empty()) throw SpecError("--vary '" + option + "' has an empty value");
        vary.values.push_back(parse_value(value));
    }
    return vary;
}

void check_grid_size(const std::vector<Vary>& varies, int runs) {
    std::size_t total = static_cast<std::size_t>(std::max(runs, 1));
    std::string cells;
    for (const auto& vary : varies) {
        const std::size_t values = std::max<std::size_t>(vary.values.size(), 1);
        total = total > kMaxGridRuns ? total : total * values;  // stops growing once past the bound: no overflow
        cells += (cells.empty() ? "" : " x ") + std::to_string(vary.values.size());
    }
    if (total > kMaxGridRuns)
        throw SpecError("compare: the grid asks for more than " + std::to_string(kMaxGridRuns) + " runs (" + cells +
                        " cells x " + std::to_string(runs) + " runs): vary fewer values or lower --runs");
}

std::string GridCell::label() const {
    std::string text;
    for (const auto& [field, value] : settings)
        text += (text.empty() ? "" : " ") + field + "=" +
                (value.is_string() ? value.get<std::string>() : value.dump()) + resolved_ms(value, spec.ttl_ms);
    return text;
}

std::vector<GridCell> expand_grid(const Spec& base, const std::vector<Vary>& varies) {
    nlohmann::json base_json = spec_to_json(base);
    if (!base.fault_duration_ms) base_json.erase("fault_duration_ms");  // let it follow a varied ttl_ms
    std::vector<std::vector<std::pair<std::string, nlohmann::json>>> combos{{}};
    std::set<std::string> varied;
    for (const auto& vary : varies) {
        if (vary.field == "seed" || vary.field == "name")
            throw SpecError("--vary " + vary.field + ": compare sets the seeds and names itself");
        if (!varied.insert(vary.field).second)
            throw SpecError("--vary " + vary.field + " is given twice; give all its values in one --vary " +
                            vary.field + "=V1,V2,...");
        std::vector<std::vector<std::pair<std::string, nlohmann::json>>> next;
        for (const auto& combo : combos)
            for (const auto& value : vary.values) {
                auto extended = combo;
                extended.emplace_back(vary.field, value);
                next.push_back(std::move(extended));
            }
        combos = std::move(next);
    }
    std::vector<GridCell> cells;
    for (auto& combo : combos) {
        nlohmann::json cell_json = base_json;
        for (const auto& [field, value] : combo) cell_json[field] = value;
        GridCell cell{combo, {}};
        cell.spec = spec_from_json(cell_json, "--vary " + cell.label());
        validate(cell.spec);
        cells.push_back(std::move(cell));
    }
    return cells;
}

}  // namespace lockcheck
