// results_from_json (reports/results_json.hpp): results.json read back into
// typed values, each field checked for its type where it is read.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "core/json_text.hpp"
#include "core/regular_file.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {
namespace {

std::string_view type_words(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::null: return "null";
        case nlohmann::json::value_t::boolean: return "a boolean";
        case nlohmann::json::value_t::string: return "a string";
        case nlohmann::json::value_t::array: return "an array";
        case nlohmann::json::value_t::object: return "an object";
        case nlohmann::json::value_t::number_float: return "a fraction";
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned: return "an integer";
        default: return "no JSON value";
    }
}

/// Reads the fields of one JSON object, naming each by its path in errors.
class FieldReader {
public:
    FieldReader(const nlohmann::json& object, std::string path, std::string_view source)
        : object_(object), path_(std::move(path)), source_(source) {
        if (!object_.is_object()) refuse(path_.empty() ? "the file" : path_, object_, "an object");
    }

    /// The member `key`, or nullptr when it is absent (or null, which results.json writes for "none").
    const nlohmann::json* find(std::string_view key) const {
        const auto it = object_.find(key);
        return it == object_.end() || it->is_null() ? nullptr : &*it;
    }
    std::string where(std::string_view key) const {
        return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    }

    [[noreturn]] void refuse(const std::string& field, const nlohmann::json& value, std::string_view expected) const {
        throw ResultsError(fmt::format("{}: {} is {}, not {}", source_, field, type_words(value), expected));
    }

    bool boolean(std::string_view key, bool fallback) const {
        const auto* v = find(key);
        if (!v) return fallback;
        if (!v->is_boolean()) refuse(where(key), *v, "true or false");
        return v->get<bool>();
    }
    std::string text(std::string_view key) const {
        const auto* v = find(key);
        if (!v) return "";
        if (!v->is_string()) refuse(where(key), *v, "a string");
        return v->get<std::string>();
    }
    std::int64_t integer(std::string_view key) const {
        const auto* v = find(key);
        if (!v) return 0;
        if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<std::uint64_t>() > INT64_MAX))
            refuse(where(key), *v, "an integer");
        return v->get<std::int64_t>();
    }
    double number(std::string_view key) const {
        const auto* v = find(key);
        if (!v) return 0;
        if (!v->is_number()) refuse(where(key), *v, "a number");
        return v->get<double>();
    }
    /// An object or array member as it is (`fallback` when absent).
    nlohmann::json value_of(std::string_view key, nlohmann::json::value_t type, nlohmann::json fallback) const {
        const auto* v = find(key);
        if (!v) return fallback;
        if (v->type() != type) refuse(where(key), *v, type_words(nlohmann::json(type)));
        return *v;
    }
    std::vector<std::string> texts(std::string_view key) const {
        std::vector<std::string> out;
        const auto list = value_of(key, nlohmann::json::value_t::array, nlohmann::json::array());
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_string()) refuse(fmt::format("{}[{}]", where(key), i), list[i], "a string");
            out.push_back(list[i].get<std::string>());
        }
        return out;
    }
    Validity validity(std::string_view key, std::optional<Validity> fallback) const {
        const auto* v = find(key);
        if (!v && fallback) return *fallback;
        if (v && v->is_boolean()) return v->get<bool>() ? Validity::Valid : Validity::Invalid;
        if (v && *v == "unknown") return Validity::Unknown;
        if (!v) throw ResultsError(fmt::format("{}: {} is missing (the verdict)", source_, where(key)));
        refuse(where(key), *v, "true, false or \"unknown\"");
    }

    std::string_view source() const { return source_; }

private:
    const nlohmann::json& object_;
    std::string path_;
    std::string_view source_;
};

Violation violation_from_json(const nlohmann::json& json, const std::string& path, std::string_view source) {
    const FieldReader fields(json, path, source);
    Violation v{fields.text("kind"),
                {},
                fields.text("description"),
                fields.value_of("details", nlohmann::json::value_t::object, nlohmann::json::object())};
    const auto ops = fields.value_of("ops", nlohmann::json::value_t::array, nlohmann::json::array());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (!ops[i].is_number_integer()) fields.refuse(fmt::format("{}.ops[{}]", path, i), ops[i], "an integer");
        v.ops.push_back(ops[i].get<std::int64_t>());
    }
    return v;
}

CheckerResult checker_from_json(const std::string& name, const nlohmann::json& json, std::string_view source) {
    const std::string path = "checkers." + name;
    const FieldReader fields(json, path, source);
    CheckerResult c;
    c.name = name;
    c.valid = fields.validity("valid", Validity::Valid);
    const auto violations = fields.value_of("violations", nlohmann::json::value_t::array, nlohmann::json::array());
    for (std::size_t i = 0; i < violations.size(); ++i)
        c.violations.push_back(violation_from_json(violations[i], fmt::format("{}.violations[{}]", path, i), source));
    const auto total = fields.find("violations_total") ? fields.integer("violations_total")
                                                       : static_cast<std::int64_t>(c.violations.size());
    if (total < static_cast<std::int64_t>(c.violations.size()))
        throw ResultsError(fmt::format("{}: {}.violations_total is {}, fewer than the {} violations listed", source,
                                       path, total, c.violations.size()));
    c.unlisted_violations = static_cast<std::size_t>(total) - c.violations.size();
    c.counts_toward_verdict = fields.boolean("counts_toward_verdict", true);
    c.stats = fields.value_of("stats", nlohmann::json::value_t::object, nlohmann::json::object());
    return c;
}

RecordedRun run_from_json(const nlohmann::json& json, std::string_view source) {
    const FieldReader fields(json, "run", source);
    RecordedRun run;
    if (fields.find("seed")) {
        const auto* seed = fields.find("seed");
        if (!seed->is_number_unsigned()) fields.refuse("run.seed", *seed, "an integer of at least 0");
        run.seed = seed->get<std::uint64_t>();
    }
    run.ops = fields.integer("ops");
    run.faults = fields.integer("faults");
    run.seconds = fields.number("seconds");
    run.interrupted = fields.boolean("interrupted", false);
    run.client = fields.text("client");
    if (const auto* early = fields.find("stopped_early")) {
        const FieldReader stop(*early, "run.stopped_early", source);
        run.stopped_early = RecordedEarlyStop{stop.text("reason"), stop.integer("ops"), stop.number("seconds")};
    }
    return run;
}

RecordedExpectation expectation_from_json(const nlohmann::json& json, std::string_view source) {
    const FieldReader fields(json, "expectation", source);
    return {fields.boolean("applies", true), fields.boolean("matched", false), fields.texts("mismatches"),
            fields.text("reason")};
}

}  // namespace

const CheckerResult* RecordedResults::checker(std::string_view name) const {
    const auto it = std::find_if(report.checkers.begin(), report.checkers.end(),
                                 [&](const CheckerResult& c) { return c.name == name; });
    return it == report.checkers.end() ? nullptr : &*it;
}

std::set<std::string> RecordedResults::violation_kinds() const {
    std::set<std::string> kinds;
    for (const auto& c : report.checkers)
        if (c.counts_toward_verdict)
            for (const auto& v : c.violations)
                if (!v.kind.empty()) kinds.insert(v.kind);
    return kinds;
}

std::int64_t RecordedResults::counted_violations_total() const {
    std::int64_t total = 0;
    for (const auto& c : report.checkers)
        if (c.counts_toward_verdict) total += static_cast<std::int64_t>(c.violations_total());
    return total;
}

RecordedResults results_from_json(const nlohmann::json& json, std::string_view source) {
    const FieldReader fields(json, "", source);
    RecordedResults results;
    results.report.valid = fields.validity("valid", std::nullopt);
    results.report.unknown_reason = fields.text("unknown_reason");
    results.report.exercised = fields.value_of("exercised", nlohmann::json::value_t::object, nlohmann::json::object());
    const auto checkers = fields.value_of("checkers", nlohmann::json::value_t::object, nlohmann::json::object());
    for (const auto& [name, checker] : checkers.items())
        results.report.checkers.push_back(checker_from_json(name, checker, source));
    if (const auto* run = fields.find("run")) results.run = run_from_json(*run, source);
    if (const auto* expectation = fields.find("expectation"))
        results.expectation = expectation_from_json(*expectation, source);
    return results;
}

std::optional<RecordedResults> written_results(const nlohmann::json& results) {
    if (results.is_null()) return std::nullopt;
    return results_from_json(results);
}

RecordedResults read_results_file(const std::filesystem::path& path) {
    if (const auto wrong = not_a_regular_file(path)) throw ResultsError(fmt::format("{} {}", path.string(), *wrong));
    std::ifstream in(path);
    if (!in) throw ResultsError(fmt::format("{}: cannot be opened", path.string()));
    nlohmann::json json;
    try {
        json = parse_json_bounded(in);
    } catch (const JsonInputError& e) {
        throw ResultsError(fmt::format("{}: {}", path.string(), e.what()));
    }
    return results_from_json(json, path.string());
}

}  // namespace lockcheck
