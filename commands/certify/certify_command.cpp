#include "commands/certify/certify_command.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "commands/certify/certify_card.hpp"
#include "commands/certify/certify_evidence.hpp"
#include "run/run_directory.hpp"
#include "nemesis/fault_registry.hpp"
#include "reports/certify_html.hpp"
#include "reports/html_report.hpp"
#include "reports/junit_xml.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {
namespace {

/// The spec of one cell: the family's base with --workers, the cell's shape,
/// the cell's own fields, then the user's other flags.
Spec cell_spec(const CertifyCell& cell, const CertifyOptions& certify) {
    const CertifyFamily& family = certify_family(certify.topology);
    nlohmann::json j = family.base;
    j["workers"] = certify.workers;
    j.update(certify_shape(cell.shape).settings);
    j.update(cell.settings);
    j["name"] = fmt::format("certify-{}-{}", certify.topology, cell.name);
    j["topology"] = family.topology;
    j["recipe"] = certify.recipe.value_or(family.recipe);
    j["nemesis"] = cell.nemesis;
    j["time_limit_s"] = certify.time_limit.value_or(cell.time_limit_s);
    if (certify.client_cmd) j["client_cmd"] = *certify.client_cmd;
    if (certify.ttl_ms) j["ttl_ms"] = *certify.ttl_ms;
    Spec spec = spec_from_json(j, "certify cell " + cell.name);
    spec.expect = cell.expect;
    return spec;
}

/// Why `cell` cannot run in this build, or "".
std::string missing_fault(const CertifyCell& cell) {
    for (const auto& fault : cell.nemesis)
        if (!find_fault(fault)) return "not available in this build (no fault " + fault + ")";
    return "";
}

std::string run_verdict_words(const RunOutcome& run) {
    if (run.exit_code == exit_code::kBadInput) return "bad-spec";
    if (run.exit_code == exit_code::kHarnessError || !run.verdict) return "error";
    return std::string(to_string(*run.verdict));
}

/// The client certified, in words: the command, or "built-in recipe NAME".
std::string client_words(const CertifyOptions& certify) {
    if (certify.client_cmd) return *certify.client_cmd;
    return "built-in recipe " + certify.recipe.value_or(certify_family(certify.topology).recipe);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int certify_command(const CertifyOptions& certify, const RunOptions& options) {
    if (certify.client_cmd && certify.recipe)
        throw SpecError("certify: give --client-cmd (your client) or --recipe (a built-in one), not both");
    if (certify.repeat < 1) throw SpecError(fmt::format("certify: --repeat must be at least 1, got {}", certify.repeat));
    // What does not depend on a cell's faults (the recipe, the ttl, the workers) is bad input: exit 254.
    validate(cell_spec(CertifyCell{"base", {}, nlohmann::json::object(), {}, {}, false, 1, ""}, certify));
    std::vector<CertifyCell> cells = cells_for(certify.topology);
    if (certify.cells) cells = select_cells(cells, *certify.cells);
    // Every cell's spec is built and checked before anything runs; a refused one is skipped, saying why.
    std::vector<std::optional<Spec>> specs;
    std::vector<std::string> skip_reasons;
    double budget = 0;
    for (const auto& cell : cells) {
        skip_reasons.push_back(missing_fault(cell));
        specs.emplace_back();
        if (!skip_reasons.back().empty()) continue;
        try {
            specs.back() = cell_spec(cell, certify);
            validate(*specs.back());
            budget += specs.back()->time_limit_s * certify.repeat;
        } catch (const SpecError& e) {
            specs.back().reset();
            skip_reasons.back() = std::string("refused: ") + e.what();
        }
    }
    const std::filesystem::path dir = options.store / ("certify-" + certify.topology + "-" + new_run_id());
    std::filesystem::create_directories(dir);
    std::printf("lockcheck certify %s: %zu cells on %s (about %.0f s of workload, plus setup) | %s\n",
                client_words(certify).c_str(), cells.size(), certify.topology.c_str(), budget, dir.c_str());
    std::fflush(stdout);

    const auto start = std::chrono::steady_clock::now();
    std::vector<CellResult> results;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const CertifyCell& cell = cells[i];
        if (!specs[i] || options.interrupted.stop_requested()) {
            results.push_back(skipped_cell(cell, specs[i] ? "interrupted" : skip_reasons[i]));
            std::printf("\n== [%zu/%zu] %s: skipped: %s\n", i + 1, cells.size(), cell.name.c_str(),
                        results.back().why.c_str());
            continue;
        }
        std::vector<CellRun> runs;
        bool refused = false;  // this host cannot run it (a fault that needs root, a missing helper...)
        const int needed = evidence_needed(cell, certify.evidence);
        std::int64_t seen = 0;
        for (int r = 0; !refused && !options.interrupted.stop_requested() &&
                        wants_another_run(cell, runs, certify.repeat, needed, seen);
             ++r) {
            std::printf("\n== [%zu/%zu] %s%s | %.0fs so far\n", i + 1, cells.size(), cell.name.c_str(),
                        run_words(r, certify.repeat, needed, seen).c_str(), seconds_since(start));
            std::fflush(stdout);
            RunOptions run_options = options;
            run_options.store = dir / "runs" / cell.name;
            const RunOutcome run = run_spec(*specs[i], run_options);
            refused = run.exit_code == exit_code::kBadInput;
            if (refused) break;
            runs.push_back(cell_run_from_results(run.results, run_verdict_words(run), run.run_dir.string(),
                                                 run.wall_seconds, run.exit_code));
            runs.back().danger_seen = danger_seen(cell, run.results);
            seen += runs.back().danger_seen;
        }
        results.push_back(refused       ? skipped_cell(cell, "refused on this host (exit 254): see the error line above")
                          : runs.empty() ? skipped_cell(cell, "interrupted")
                                         : judge_cell(cell, runs));
        if (!refused && !runs.empty()) apply_evidence(results.back(), cell, needed, seen);
        std::printf("-- %s: %s%s\n", cell.name.c_str(), std::string(to_string(results.back().status)).c_str(),
                    evidence_words(results.back()).c_str());
    }
    const double seconds = seconds_since(start);
    std::printf("%s", card_text(results, certify.topology, seconds).c_str());
    const nlohmann::json card = card_json(
        results, {{"topology", certify.topology}, {"client_cmd", client_words(certify)}, {"seconds", seconds},
                  {"workers", certify.workers}, {"repeat", certify.repeat},
                  {"evidence", certify.evidence.value_or(kDefaultEvidence)}});
    write_json_file(dir / "certify.json", card);
    write_text_file(dir / "certify.html", render_certify_html(card));
    write_text_file(dir / "junit.xml", junit_xml({card_junit(results, certify.topology)}));
    std::printf("certify.html, certify.json and junit.xml in %s\n", dir.c_str());
    return certify_exit_code(results);
}

}  // namespace lockcheck
