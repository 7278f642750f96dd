#include "commands/shrink/shrink_command.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <thread>

#include "core/counted.hpp"
#include "core/interruptible_sleep.hpp"
#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "run/run_setup.hpp"
#include "commands/shrink/shrink_input.hpp"
#include "commands/shrink/shrink_search.hpp"
#include "commands/shrink/shrink_trial.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// The spec of a candidate: the original run's, with `shape`, an explicit
/// schedule, no seed (every run draws its own), no labels, the expectation
/// that it fails with `kind`, and where it came from.
Spec candidate_spec(const ShrinkInput& in, const ShrinkShape& shape) {
    Spec s = in.spec;
    s.seed.reset();
    s.labels.clear();
    s.schedule = shape.events;
    s.nemesis = schedule_kinds(shape.events);
    s.workers = shape.workers;
    s.keys = shape.keys;
    s.time_limit_s = shape.time_limit_s;
    s.expect = Expectation{"invalid", {in.kind}, {}};
    s.shrunk_from = in.run_dir.string();
    s.description = fmt::format("Shrunk by lockcheck shrink from {} (it failed with {}). {}", in.run_dir.string(),
                                in.kind, in.spec.description);
    return s;
}

nlohmann::json shape_to_json(const ShrinkShape& shape) {
    return {{"events", shape.events.size()},
            {"event_ids", event_ids(shape.events)},
            {"workers", shape.workers},
            {"keys", shape.keys},
            {"time_limit_s", shape.time_limit_s}};
}

std::string shape_words(const ShrinkShape& shape) {
    return fmt::format("{}, {}, {}, {:g} s", counted(static_cast<std::int64_t>(shape.events.size()), "event"),
                       counted(shape.workers, "worker"), counted(shape.keys, "key"), shape.time_limit_s);
}

/// Requests `stop` when `deadline` passes or `interrupted` is requested.
class BudgetStop {
public:
    BudgetStop(Clock::time_point deadline, const std::stop_token& interrupted)
        : on_interrupt_(interrupted, [this] { stop_.request_stop(); }),
          timer_([this, deadline](const std::stop_token& done) {
              if (interruptible_sleep_until(done, deadline)) stop_.request_stop();
          }) {}
    std::stop_token token() const { return stop_.get_token(); }

private:
    std::stop_source stop_;
    std::stop_callback<std::function<void()>> on_interrupt_;
    std::jthread timer_;
};

}  // namespace

std::chrono::seconds parse_budget(const std::string& text) {
    long long value = 0;
    const char* end = text.data() + text.size();
    const auto [rest, error] = std::from_chars(text.data(), end, value);
    const std::string unit(rest, end);
    const long long scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 0;
    if (error != std::errc() || rest == text.data() || scale == 0 || value <= 0 || value > 7 * 24 * 3600 / scale)
        throw SpecError(fmt::format(
            "shrink: --budget must be a whole number of seconds, minutes or hours (90s, 10m, 1h) up to a week, not "
            "'{}'",
            text));
    return std::chrono::seconds(value * scale);
}

int shrink_command(const ShrinkOptions& shrink, const RunOptions& options) {
    const auto budget = parse_budget(shrink.budget);
    if (shrink.runs < 1) throw SpecError(fmt::format("shrink: --runs must be at least 1, not {}", shrink.runs));
    const ShrinkInput in = read_shrink_input(shrink.run_dir);
    const auto start = Clock::now();
    const auto dir = options.store / in.spec.name / ("shrink-" + new_run_id());
    std::filesystem::create_directories(dir / "candidates");
    const ShrinkShape original{in.schedule, in.spec.workers, in.spec.keys, in.spec.time_limit_s};
    std::printf("lockcheck shrink %s: keeps %s; from %s; %d runs per candidate, budget %llds | shrink directory %s\n",
                in.run_dir.c_str(), in.kind.c_str(), shape_words(original).c_str(), shrink.runs,
                static_cast<long long>(budget.count()), dir.c_str());
    std::fflush(stdout);

    RunOptions child = options;
    child.store = dir / "runs";
    child.stop_on_decided = true;  // a run stops once it failed with the kind: candidates that fail are quick
    const BudgetStop search_stop(start + budget, options.interrupted);
    child.interrupted = search_stop.token();

    nlohmann::json steps = nlohmann::json::array();
    std::filesystem::path last_failing_run;
    const TryShape try_shape = [&](const ShrinkShape& shape, const std::string& step,
                                   const std::string& removed) -> std::optional<TrialVerdict> {
        const int n = static_cast<int>(steps.size()) + 1;
        const auto tried = Clock::now();
        const auto spec_path = dir / "candidates" / fmt::format("c{}.json", n);
        const Trial trial = run_trial(candidate_spec(in, shape), {spec_path, in.kind, shrink.runs, true, child});
        if (!trial.failed_to_run.empty())  // no evidence either way: the search cannot go on
            throw HarnessError(fmt::format("shrink: candidate {} could not run: {}", n, trial.failed_to_run));
        nlohmann::json row = trial_to_json(trial);
        row.update(
            {{"step", step}, {"removed", removed}, {"candidate", shape_to_json(shape)}, {"spec", spec_path.string()}});
        if (trial.interrupted) {  // not judged: the budget or Ctrl-C ended it
            row["kept"] = nullptr;
            steps.push_back(std::move(row));
            return std::nullopt;
        }
        const bool is_kept = kept(trial, shrink.runs);
        if (is_kept) last_failing_run = trial.failing_run_dir;
        std::printf("[%d] %s: without %s -> %s: %d/%d reproduced: %s (%.0f s; %.0f s in all)\n", n, step.c_str(),
                    removed.c_str(), shape_words(shape).c_str(), trial.reproduced, trial.runs,
                    is_kept ? "kept" : "refused", seconds_since(tried), seconds_since(start));
        std::fflush(stdout);
        row["kept"] = is_kept;
        steps.push_back(std::move(row));
        return TrialVerdict{is_kept, trial.first_violation_seconds};
    };
    std::vector<double> first;
    if (in.first_violation_seconds) first.push_back(*in.first_violation_seconds);
    const SearchResult result =
        shrink_search({original, in.started_before_violation, first,
                       count_options_of(in.spec.fault_options, spec_node_count(in.spec)), in.spec.hold_ms.max},
                      try_shape);
    const double search_seconds = seconds_since(start);
    const bool interrupted = options.interrupted.stop_requested();

    const Spec best = candidate_spec(in, result.best);
    const auto spec_file = dir / "spec.json";
    nlohmann::json verification = nullptr;
    bool reproduced = false;  // by the result's fresh runs
    if (!interrupted) {  // the result's reproduction rate over fresh runs, beyond the budget
        RunOptions fresh = child;
        fresh.interrupted = options.interrupted;
        const Trial trial = run_trial(best, {dir / "candidates" / "result.json", in.kind, shrink.runs, false, fresh});
        if (!trial.failed_to_run.empty())
            throw HarnessError("shrink: the result's fresh runs could not run: " + trial.failed_to_run);
        verification = trial_to_json(trial);
        reproduced = kept(trial, shrink.runs);
        if (!trial.failing_run_dir.empty()) last_failing_run = trial.failing_run_dir;
        std::printf("result: %s: %d/%d fresh runs reproduced %s\n", shape_words(result.best).c_str(), trial.reproduced,
                    trial.runs, in.kind.c_str());
    }
    write_json_file(spec_file, spec_to_json(best));
    std::error_code ec;
    if (!last_failing_run.empty())
        std::filesystem::copy_file(last_failing_run / "report.html", dir / "report.html",
                                   std::filesystem::copy_options::overwrite_existing, ec);
    const bool report = !last_failing_run.empty() && !ec;
    write_json_file(
        dir / "shrink.json",
        {{"original_run", in.run_dir.string()},
         {"scenario", in.spec.name},
         {"kind", in.kind},
         {"runs_per_candidate", shrink.runs},
         {"budget_seconds", budget.count()},
         {"before", shape_to_json(original)},
         {"after", shape_to_json(result.best)},
         {"steps", steps},
         {"stopped", interrupted      ? nlohmann::json("interrupted")
                     : result.stopped ? nlohmann::json("budget")
                                      : nlohmann::json(nullptr)},
         {"search_seconds", search_seconds},
         {"result", verification},
         {"report", report ? nlohmann::json((dir / "report.html").string()) : nlohmann::json(nullptr)},
         {"report_run", last_failing_run.empty() ? nlohmann::json(nullptr) : nlohmann::json(last_failing_run.string())},
         {"spec", spec_file.string()}});
    std::printf("shrunk %s -> %s in %.0f s%s, %zu candidates | %s\n", shape_words(original).c_str(),
                shape_words(result.best).c_str(), search_seconds,
                interrupted      ? " (interrupted: best so far)"
                : result.stopped ? " (budget spent: best so far)"
                                 : "",
                steps.size(), dir.c_str());
    if (report) std::printf("report of a failing run: %s\n", (dir / "report.html").c_str());
    std::printf("rerun it: %s run %s\n", options.self_exe.filename().c_str(),
                std::filesystem::absolute(spec_file).c_str());
    if (!interrupted && !reproduced)
        std::printf("the result did not reproduce %s in enough fresh runs: not a reproducer (exit 2)\n",
                    in.kind.c_str());
    return interrupted || !reproduced ? exit_code::kUnknown : exit_code::kValid;
}

}  // namespace lockcheck
