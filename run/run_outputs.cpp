#include "run/run_outputs.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

#include "core/counted.hpp"
#include "core/history_io.hpp"
#include "run/exit_codes.hpp"

namespace lockcheck {
namespace {

nlohmann::json early_to_json(const std::optional<EarlyDecision>& early) {
    if (!early) return nullptr;
    return {{"reason", early->reason}, {"ops", early->ops}, {"seconds", early->seconds}};
}

nlohmann::json run_to_json(const Spec& spec, const RunDirectory& dir, const RunFigures& figures) {
    return {{"name", spec.name},
            {"run_id", dir.run_id},
            {"seed", *spec.seed},
            {"ops", figures.ops},
            {"faults", figures.faults},
            {"seconds", figures.seconds},
            {"workers_ready_seconds", figures.workers_ready_seconds},
            {"interrupted", figures.interrupted},
            {"stopped_early", early_to_json(figures.stopped_early)},
            {"workers_failed", figures.workers_failed},
            {"network", figures.namespaces ? "netns" : "loopback"},
            {"client", figures.client}};
}

}  // namespace

CheckedHistory conclude_run(const Spec& spec, const RunDirectory& dir, const RunFigures& figures,
                            const std::optional<std::string>& expectation_not_applicable) {
    CheckedHistory checked;
    try {
        const History history = read_history(dir.path / "history.jsonl");
        std::printf("\n");
        CheckContext context{dir.path, run_to_json(spec, dir, figures), spec.expect, spec_to_json(spec)};
        context.expectation_not_applicable = expectation_not_applicable;
        checked = check_history(history, context);
    } catch (const HistoryError& e) {
        throw HarnessError(e.what());
    }
    std::printf("  %s in %.1f s, %s injected%s\n", counted(figures.ops, "op").c_str(), figures.seconds,
                counted(figures.faults, "fault").c_str(), figures.interrupted ? " (interrupted)" : "");
    if (figures.stopped_early)
        std::printf("  stopped early (--stop-on-decided): %s after %.1f s (%s)\n",
                    figures.stopped_early->reason.c_str(), figures.stopped_early->seconds,
                    counted(figures.stopped_early->ops, "op").c_str());
    if (checked.expectation) {
        std::string mismatches;
        for (const auto& m : checked.expectation->mismatches) mismatches += (mismatches.empty() ? "" : "; ") + m;
        std::printf("  scenario expectation: %s\n",
                    checked.expectation->matched ? "met" : ("NOT met: " + mismatches).c_str());
    } else if (expectation_not_applicable) {
        std::printf("  scenario expectation: does not apply: %s\n", expectation_not_applicable->c_str());
    }
    std::printf("  run directory: %s\n", dir.path.c_str());
    spdlog::info("verdict: {}", to_string(checked.report.valid));
    return checked;
}

}  // namespace lockcheck
