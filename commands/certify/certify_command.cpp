#include "commands/certify/certify_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/atomic_file.hpp"
#include "commands/certify/certify_card.hpp"
#include "commands/certify/certify_evidence.hpp"
#include "run/run_directory.hpp"
#include "nemesis/fault_registry.hpp"
#include "reports/certify_html.hpp"
#include "reports/junit_xml.hpp"
#include "reports/results_json.hpp"
#include "recipes/recipe_registry.hpp"
#include "workers/worker_launch.hpp"
#include "workers/workload_registry.hpp"

namespace lockcheck {
namespace {

/// The spec of one cell: the family's base with --workers, the cell's shape,
/// its fault's aim, the cell's own fields, then the user's other flags.
Spec cell_spec(const CertifyCell& cell, const CertifyOptions& certify) {
    const CertifyFamily& family = certify_family(certify.topology);
    nlohmann::json j = family.base;
    j["workers"] = certify.workers;
    j.update(certify_shape(cell.shape).settings);
    j.update(certify_aim(cell.aim).settings);
    const std::string recipe = certify.recipe.value_or(family.recipe);
    const nlohmann::json settings = cell_settings(cell, family, certify.client_cmd ? "" : recipe);
    j.update(settings);
    j["name"] = fmt::format("certify-{}-{}", certify.topology, cell.name);
    j["topology"] = family.topology;
    j["recipe"] = recipe;
    j["nemesis"] = cell.nemesis;
    j["time_limit_s"] = certify.time_limit.value_or(cell_time_limit_s(cell, settings));
    if (certify.client_cmd) j["client_cmd"] = *certify.client_cmd;
    if (certify.ttl_ms) {
        j["ttl_ms"] = *certify.ttl_ms;
        nlohmann::json scaled = ttl_scaled_fields(cell, *certify.ttl_ms, family.base.value("ttl_ms", std::int64_t{0}));
        if (certify.time_limit) scaled.erase("time_limit_s");
        if (scaled.contains("time_limit_s"))  // stretched by the lease's factor from this cell's own seconds
            scaled["time_limit_s"] = scaled["time_limit_s"].get<double>() / cell.time_limit_s *
                                     cell_time_limit_s(cell, settings);
        j.update(scaled);
    }
    resolve_ttl_ranges(j);
    Spec spec = spec_from_json(j, "certify cell " + cell.name);
    spec.expect = cell.expect;
    return spec;
}

/// A cell's checked spec, or why it cannot run.
struct PreparedCell {
    std::optional<Spec> spec;
    std::string skip_reason;  ///< when there is no spec
    bool incomplete = false;  ///< refused only because of the user's flags (CellResult::incomplete)
};

/// Whether `cell` runs with the family's own settings, i.e. only the user's
/// --ttl-ms, --time-limit or --workers made its spec refused.
bool runs_with_family_settings(const CertifyCell& cell, CertifyOptions certify) {
    certify.ttl_ms.reset();
    certify.time_limit.reset();
    certify.workers = CertifyOptions{}.workers;
    try {
        validate(cell_spec(cell, certify));
        return true;
    } catch (const SpecError&) {
        return false;
    }
}

/// Why `cell` cannot run in this build, or "".
std::string missing_fault(const CertifyCell& cell) {
    for (const auto& fault : cell.nemesis)
        if (!find_fault(fault)) return "not available in this build (no fault " + fault + ")";
    return "";
}

PreparedCell prepare_cell(const CertifyCell& cell, const CertifyOptions& certify) {
    PreparedCell prepared{std::nullopt, missing_fault(cell), false};
    if (!prepared.skip_reason.empty()) return prepared;
    try {
        prepared.spec = cell_spec(cell, certify);
        validate(*prepared.spec);
    } catch (const SpecError& e) {
        prepared.spec.reset();
        prepared.incomplete = runs_with_family_settings(cell, certify);
        prepared.skip_reason = std::string(prepared.incomplete ? "refused with your flags: " : "refused: ") + e.what();
    }
    return prepared;
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

/// The cell's warning when its client clock fault may not move the client's
/// clock (shell_client_clock_warning), appended to its why; else `result`.
CellResult with_clock_warning(CellResult result, const Spec& spec) {
    const bool moves = std::any_of(spec.nemesis.begin(), spec.nemesis.end(), [](const std::string& kind) {
        const FaultDescriptor* fault = find_fault(kind);
        return fault && fault->needs_worker_clock_library;
    });
    if (const auto warning = shell_client_clock_warning(spec, moves); !warning.empty())
        result.why += (result.why.empty() ? "warning: " : "; warning: ") + warning;
    return result;
}

/// Throws SpecError when `recipe` runs another workload than the lock cycle
/// (unique ids, stock): the battery's expectations judge lock clients only.
void refuse_non_lock_recipe(const std::optional<std::string>& recipe) {
    const RecipeDescriptor* descriptor = recipe ? find_recipe(*recipe) : nullptr;
    if (!descriptor) return;  // an unknown name is refused with the recipes listed, by validate
    const WorkloadDescriptor& workload = workload_for(descriptor->supports);
    if (!workload.capability.empty())
        throw SpecError(fmt::format("certify: --recipe '{}' is not a lock (it runs the {} workload); certify judges "
                                    "lock clients only: run it with `lockcheck run` or `suite`",
                                    *recipe, workload.name));
}

/// Where and how a cell runs, and its place on the card.
struct CellContext {
    const CertifyOptions& certify;
    const RunOptions& options;
    const std::filesystem::path& dir;
    std::chrono::steady_clock::time_point start;
    std::size_t number = 0;  ///< 1-based
    std::size_t cells = 0;
};

/// Runs `cell` until its runs saw its danger as often as needed or its runs
/// are spent (wants_another_run), the host refuses it, or an interrupt cuts a
/// run short (a partial run is not judged); its result, evidence applied.
CellResult run_cell(const CertifyCell& cell, const Spec& spec, const CellContext& at) {
    std::vector<CellRun> runs;
    bool refused = false;    // this host cannot run it (a fault that needs root, a missing helper...)
    bool cut_short = false;  // an interrupt stopped its run
    const int needed = evidence_needed(cell, at.certify.evidence);
    std::int64_t seen = 0;
    std::string not_applicable;  // the client's lock has no lease, and the cell's danger needs one
    for (int r = 0; !refused && !cut_short && not_applicable.empty() && !at.options.interrupted.stop_requested() &&
                    wants_another_run(cell, runs, at.certify.repeat, needed, seen);
         ++r) {
        std::printf("\n== [%zu/%zu] %s%s | %.0fs so far\n", at.number, at.cells, cell.name.c_str(),
                    run_words(r, at.certify.repeat, needed, seen).c_str(), seconds_since(at.start));
        std::fflush(stdout);
        RunOptions run_options = at.options;
        run_options.store = at.dir / "runs" / cell.name;
        const RunOutcome run = run_spec(spec, run_options);
        refused = run.exit_code == exit_code::kBadInput;
        cut_short = run.interrupted || at.options.interrupted.stop_requested();
        if (refused || cut_short) break;
        runs.push_back(cell_run_from_results(written_results(run.results), run_verdict_words(run),
                                             run.run_dir.string(), run.wall_seconds, run.exit_code));
        runs.back().danger_seen = danger_seen(cell, run.results);
        seen += runs.back().danger_seen;
        not_applicable = danger_impossible_without_lease(cell, run.results);
    }
    if (refused) return skipped_cell(cell, "refused on this host (exit 254): see the error line above");
    if (cut_short || runs.empty()) return incomplete_cell(cell, "interrupted: its run was cut short, not judged");
    CellResult result = with_clock_warning(judge_cell(cell, runs), spec);
    apply_evidence(result, cell, needed, seen);
    if (!not_applicable.empty() && result.status == CellStatus::NotExercised) {
        result.status = CellStatus::Skipped;  // what the run found stands: only a cell it could not exercise
        result.why = not_applicable;
    }
    return result;
}

}  // namespace

int certify_command(const CertifyOptions& certify, const RunOptions& options) {
    if (certify.client_cmd && certify.recipe)
        throw SpecError("certify: give --client-cmd (your client) or --recipe (a built-in one), not both");
    refuse_non_lock_recipe(certify.recipe);
    if (certify.repeat < 1) throw SpecError(fmt::format("certify: --repeat must be at least 1, got {}", certify.repeat));
    // What does not depend on a cell's faults (the recipe, the ttl, the workers) is bad input: exit 254.
    validate(cell_spec(CertifyCell{"base", {}, nlohmann::json::object(), {}, {}, false, 1, ""}, certify));
    std::vector<CertifyCell> cells = cells_for(certify.topology);
    if (certify.cells) cells = select_cells(cells, *certify.cells);
    // Every cell's spec is built and checked before anything runs; a refused one is skipped, saying why.
    std::vector<PreparedCell> prepared;
    double budget = 0;
    for (const auto& cell : cells) {
        prepared.push_back(prepare_cell(cell, certify));
        if (prepared.back().spec) budget += prepared.back().spec->time_limit_s * certify.repeat;
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
        if (!prepared[i].spec || options.interrupted.stop_requested()) {
            results.push_back(!prepared[i].spec ? (prepared[i].incomplete ? incomplete_cell : skipped_cell)(
                                                      cell, prepared[i].skip_reason)
                                                : incomplete_cell(cell, "interrupted before it ran"));
            std::printf("\n== [%zu/%zu] %s: skipped: %s\n", i + 1, cells.size(), cell.name.c_str(),
                        results.back().why.c_str());
            continue;
        }
        results.push_back(run_cell(cell, *prepared[i].spec, {certify, options, dir, start, i + 1, cells.size()}));
        std::printf("-- %s: %s%s\n", cell.name.c_str(), std::string(to_string(results.back().status)).c_str(),
                    evidence_words(results.back()).c_str());
    }
    const double seconds = seconds_since(start);
    std::printf("%s", card_text(results, certify.topology, seconds).c_str());
    const nlohmann::json card = card_json(results, {{"topology", certify.topology},
                                                    {"client_cmd", client_words(certify)},
                                                    {"seconds", seconds},
                                                    {"workers", certify.workers},
                                                    {"repeat", certify.repeat},
                                                    {"evidence", certify.evidence.value_or(kDefaultEvidence)},
                                                    {"interrupted", options.interrupted.stop_requested()}});
    write_json_file(dir / "certify.json", card);
    write_text_file(dir / "certify.html", render_certify_html(card));
    write_text_file(dir / "junit.xml", junit_xml({card_junit(results, certify.topology)}));
    std::printf("certify.html, certify.json and junit.xml in %s\n", dir.c_str());
    return certify_exit_code(results);
}

}  // namespace lockcheck
