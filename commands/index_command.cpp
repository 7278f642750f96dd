#include "commands/index_command.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <regex>

#include "core/atomic_file.hpp"
#include "core/counted.hpp"
#include "run/exit_codes.hpp"
#include "spec/spec.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {
namespace {

/// "2026-11-23 11:34:12 UTC" from a run directory named "20261123T113412Z-<id>", or "".
std::string started_from_name(const std::string& name) {
    static const std::regex stamp(R"(^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-.*)");
    std::smatch m;
    if (!std::regex_match(name, m, stamp)) return "";
    return fmt::format("{}-{}-{} {}:{}:{} UTC", m[1].str(), m[2].str(), m[3].str(), m[4].str(), m[5].str(), m[6].str());
}

std::string string_field(const nlohmann::json& object, const char* field) {
    if (!object.is_object()) return "";
    const auto it = object.find(field);
    return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string verdict_of(const nlohmann::json& results) {
    if (!results.is_object() || !results.contains("valid")) return "";
    const auto& valid = results["valid"];
    if (valid.is_boolean()) return valid.get<bool>() ? "valid" : "invalid";
    return valid.is_string() ? valid.get<std::string>() : "";
}

std::string expectation_of(const nlohmann::json& results) {
    if (!results.is_object() || !results.contains("expectation") || !results["expectation"].is_object()) return "";
    const auto& e = results["expectation"];
    if (e.value("applies", nlohmann::json(true)) == false) return "does not apply";
    return e.value("matched", false) ? "met" : "NOT met";  // throws type_error for a "matched" that is no boolean
}

IndexedRun read_run(const std::filesystem::path& store, const std::filesystem::path& dir) {
    IndexedRun run;
    run.path = std::filesystem::relative(dir, store).generic_string();
    const auto spec = read_json_or_null(dir / "spec.json");
    const auto results = read_json_or_null(dir / "results.json");
    run.scenario = string_field(spec, "name");
    run.started = started_from_name(dir.filename().string());
    std::error_code ec;
    try {
        // A run still going (or killed before its check) has no results.json; one that is there must read.
        if (results.is_null() &&
            std::filesystem::symlink_status(dir / "results.json", ec).type() != std::filesystem::file_type::not_found)
            throw std::runtime_error("is not a JSON file");
        run.verdict = verdict_of(results);
        run.expectation = expectation_of(results);
        if (results.is_object() && results.contains("run") && results["run"].is_object()) {
            run.client = string_field(results["run"], "client");
            if (results["run"].contains("seconds") && results["run"]["seconds"].is_number())
                run.seconds = results["run"]["seconds"].get<double>();
        }
    } catch (const std::exception& e) {  // a field of the wrong type (nlohmann's type_error) or no JSON
        const bool wrong_type = dynamic_cast<const nlohmann::json::exception*>(&e) != nullptr;
        std::fprintf(stderr, "lockcheck: note: %s %s; the index lists its run as unreadable\n",
                     (dir / "results.json").c_str(), wrong_type ? "has a field of the wrong type" : e.what());
        run.verdict = "unreadable";
        run.expectation = "";
        run.client = "";
    }
    run.has_report = std::filesystem::is_regular_file(dir / "report.html", ec);
    return run;
}

}  // namespace

std::vector<IndexedRun> collect_runs(const std::filesystem::path& store) {
    std::vector<IndexedRun> runs;
    std::error_code ec;
    std::filesystem::recursive_directory_iterator it(store, std::filesystem::directory_options::skip_permission_denied,
                                                     ec);
    for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_symlink(ec) || !it->is_directory(ec)) {
            if (it->is_symlink(ec)) it.disable_recursion_pending();
            continue;
        }
        const auto dir = it->path();
        if (!std::filesystem::is_regular_file(dir / "spec.json", ec) ||
            !std::filesystem::is_regular_file(dir / "history.jsonl", ec))
            continue;
        it.disable_recursion_pending();  // nodes/, workers/: nothing more to find inside a run
        runs.push_back(read_run(store, dir));
    }
    std::stable_sort(runs.begin(), runs.end(), [](const IndexedRun& a, const IndexedRun& b) {
        const auto stamp = [](const IndexedRun& r) {
            return r.path.substr(r.path.find_last_of('/') == std::string::npos ? 0 : r.path.find_last_of('/') + 1);
        };
        return stamp(a) != stamp(b) ? stamp(a) > stamp(b) : a.path < b.path;
    });
    return runs;
}

int index_command(const std::filesystem::path& store) {
    std::error_code ec;
    if (!std::filesystem::is_directory(store, ec)) throw SpecError("store " + store.string() + " is not a directory");
    const auto runs = collect_runs(store);
    write_text_file(store / "index.html", render_store_index(runs, store.string()));
    std::printf("%s: %s, newest first\n", (store / "index.html").c_str(),
                counted(static_cast<std::int64_t>(runs.size()), "run").c_str());
    return exit_code::kValid;
}

void register_index(CommandLine& line) {
    auto store = std::make_shared<std::string>(kDefaultStore);
    auto* index = line.app.add_subcommand("index",
                                          "Write STORE/index.html: every stored run, newest first, with its "
                                          "verdict and a link to its report");
    add_store_flag(*index, *store, "The store to list");
    on_chosen(*index, line, [store] { return index_command(*store); });
}

}  // namespace lockcheck
