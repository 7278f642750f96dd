#include "commands/shrink/shrink_command.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <thread>

#include "core/atomic_file.hpp"
#include "core/counted.hpp"
#include "core/interruptible_sleep.hpp"
#include "run/exit_codes.hpp"
#include "run/run_directory.hpp"
#include "run/run_setup.hpp"
#include "commands/shrink/shrink_input.hpp"
#include "commands/shrink/shrink_search.hpp"
#include "commands/shrink/shrink_trial.hpp"

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

/// One shrink under way: its input, directory, the options its child runs
/// get, and what it has tried so far.
struct ShrinkSession {
    const ShrinkInput& in;
    const ShrinkOptions& shrink;
    std::filesystem::path dir;  ///< STORE/<scenario>/shrink-<id>
    RunOptions child;           ///< for the candidates' runs: under dir/runs, stopped by the budget
    Clock::time_point start;
    nlohmann::json steps = nlohmann::json::array();  ///< shrink.json's "steps", one per candidate tried
    std::filesystem::path last_failing_run;          ///< the latest run that reproduced, for its report
};

/// Runs the candidate `shape` (the search's step `step`, without `removed`)
/// and records it; none when the budget or Ctrl-C ended it before it was judged.
std::optional<TrialVerdict> try_candidate(ShrinkSession& session, const ShrinkShape& shape, const std::string& step,
                                          const std::string& removed) {
    const int n = static_cast<int>(session.steps.size()) + 1;
    const auto tried = Clock::now();
    const auto spec_path = session.dir / "candidates" / fmt::format("c{}.json", n);
    const auto& in = session.in;
    const Trial trial =
        run_trial(candidate_spec(in, shape), {spec_path, in.kind, session.shrink.runs, true, session.child});
    if (!trial.failed_to_run.empty())  // no evidence either way: the search cannot go on
        throw HarnessError(fmt::format("shrink: candidate {} could not run: {}", n, trial.failed_to_run));
    nlohmann::json row = trial_to_json(trial);
    row.update(
        {{"step", step}, {"removed", removed}, {"candidate", shape_to_json(shape)}, {"spec", spec_path.string()}});
    if (trial.interrupted) {  // not judged: the budget or Ctrl-C ended it
        row["kept"] = nullptr;
        session.steps.push_back(std::move(row));
        return std::nullopt;
    }
    const bool is_kept = kept(trial, session.shrink.runs);
    if (is_kept) session.last_failing_run = trial.failing_run_dir;
    std::printf("[%d] %s: without %s -> %s: %d/%d reproduced: %s (%.0f s; %.0f s in all)\n", n, step.c_str(),
                removed.c_str(), shape_words(shape).c_str(), trial.reproduced, trial.runs, is_kept ? "kept" : "refused",
                seconds_since(tried), seconds_since(session.start));
    std::fflush(stdout);
    row["kept"] = is_kept;
    session.steps.push_back(std::move(row));
    return TrialVerdict{is_kept, trial.first_violation_seconds};
}

/// The ddmin search over the events, then workers, keys and time limit (commands/shrink/shrink_search.hpp).
SearchResult search_smallest(ShrinkSession& session, const ShrinkShape& original) {
    const auto& in = session.in;
    std::vector<double> first;
    if (in.first_violation_seconds) first.push_back(*in.first_violation_seconds);
    return shrink_search({original, in.started_before_violation, first,
                          count_options_of(in.spec.fault_options, spec_node_count(in.spec)), in.spec.hold_ms.max},
                         [&](const ShrinkShape& shape, const std::string& step, const std::string& removed) {
                             return try_candidate(session, shape, step, removed);
                         });
}

/// The result's reproduction over fresh runs, beyond the budget: shrink.json's
/// "result", and whether it reproduced in enough of them.
struct Verification {
    nlohmann::json trial = nullptr;
    bool reproduced = false;
};

/// Runs the result afresh; throws HarnessError when its runs could not run.
Verification verify(ShrinkSession& session, const Spec& best, const ShrinkShape& shape,
                    const std::stop_token& interrupted) {
    RunOptions fresh = session.child;
    fresh.interrupted = interrupted;
    const auto& in = session.in;
    const Trial trial =
        run_trial(best, {session.dir / "candidates" / "result.json", in.kind, session.shrink.runs, false, fresh});
    if (!trial.failed_to_run.empty())
        throw HarnessError("shrink: the result's fresh runs could not run: " + trial.failed_to_run);
    if (!trial.failing_run_dir.empty()) session.last_failing_run = trial.failing_run_dir;
    std::printf("result: %s: %d/%d fresh runs reproduced %s\n", shape_words(shape).c_str(), trial.reproduced,
                trial.runs, in.kind.c_str());
    return {trial_to_json(trial), kept(trial, session.shrink.runs)};
}

/// Copies the report of the latest failing run into the shrink directory; whether there is one now.
bool copy_failing_report(const ShrinkSession& session) {
    if (session.last_failing_run.empty()) return false;
    std::error_code ec;
    std::filesystem::copy_file(session.last_failing_run / "report.html", session.dir / "report.html",
                               std::filesystem::copy_options::overwrite_existing, ec);
    return !ec;
}

/// How the search ended, for shrink.json and the last lines.
struct SearchEnd {
    ShrinkShape original;
    SearchResult result;
    double search_seconds = 0;
    bool interrupted = false;
    std::chrono::seconds budget{0};
};

void write_shrink_json(const ShrinkSession& session, const SearchEnd& end, const nlohmann::json& verification,
                       bool report) {
    const auto& dir = session.dir;
    const auto& last = session.last_failing_run;
    write_json_file(dir / "shrink.json",
                    {{"original_run", session.in.run_dir.string()},
                     {"scenario", session.in.spec.name},
                     {"kind", session.in.kind},
                     {"runs_per_candidate", session.shrink.runs},
                     {"budget_seconds", end.budget.count()},
                     {"before", shape_to_json(end.original)},
                     {"after", shape_to_json(end.result.best)},
                     {"steps", session.steps},
                     {"stopped", end.interrupted      ? nlohmann::json("interrupted")
                                 : end.result.stopped ? nlohmann::json("budget")
                                                      : nlohmann::json(nullptr)},
                     {"search_seconds", end.search_seconds},
                     {"result", verification},
                     {"report", report ? nlohmann::json((dir / "report.html").string()) : nlohmann::json(nullptr)},
                     {"report_run", last.empty() ? nlohmann::json(nullptr) : nlohmann::json(last.string())},
                     {"spec", (dir / "spec.json").string()}});
}

/// The last lines; the exit code: 0 only for a result that reproduced in its fresh runs.
int print_outcome(const ShrinkSession& session, const SearchEnd& end, bool report, bool reproduced,
                  const RunOptions& options) {
    const auto& dir = session.dir;
    std::printf("shrunk %s -> %s in %.0f s%s, %zu candidates | %s\n", shape_words(end.original).c_str(),
                shape_words(end.result.best).c_str(), end.search_seconds,
                end.interrupted      ? " (interrupted: best so far)"
                : end.result.stopped ? " (budget spent: best so far)"
                                     : "",
                session.steps.size(), dir.c_str());
    if (report) std::printf("report of a failing run: %s\n", (dir / "report.html").c_str());
    std::printf("rerun it: %s run %s\n", options.self_exe.filename().c_str(),
                std::filesystem::absolute(dir / "spec.json").c_str());
    if (!end.interrupted && !reproduced)
        std::printf("the result did not reproduce %s in enough fresh runs: not a reproducer (exit 2)\n",
                    session.in.kind.c_str());
    return end.interrupted || !reproduced ? exit_code::kUnknown : exit_code::kValid;
}

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
    const auto dir = options.store / in.spec.name / ("shrink-" + new_run_id());
    ShrinkSession session{in, shrink, dir, options, Clock::now(), nlohmann::json::array(), {}};
    std::filesystem::create_directories(session.dir / "candidates");
    const ShrinkShape original{in.schedule, in.spec.workers, in.spec.keys, in.spec.time_limit_s};
    std::printf("lockcheck shrink %s: keeps %s; from %s; %d runs per candidate, budget %llds | shrink directory %s\n",
                in.run_dir.c_str(), in.kind.c_str(), shape_words(original).c_str(), shrink.runs,
                static_cast<long long>(budget.count()), session.dir.c_str());
    std::fflush(stdout);

    session.child.store = session.dir / "runs";
    session.child.stop_on_decided = true;  // a run stops once it failed with the kind: candidates that fail are quick
    const BudgetStop search_stop(session.start + budget, options.interrupted);
    session.child.interrupted = search_stop.token();
    const SearchResult result = search_smallest(session, original);
    const SearchEnd end{original, result, seconds_since(session.start), options.interrupted.stop_requested(), budget};

    const Spec best = candidate_spec(in, result.best);
    Verification verification;
    if (!end.interrupted) verification = verify(session, best, result.best, options.interrupted);
    write_json_file(session.dir / "spec.json", spec_to_json(best));
    const bool report = copy_failing_report(session);
    write_shrink_json(session, end, verification.trial, report);
    return print_outcome(session, end, report, verification.reproduced, options);
}

}  // namespace lockcheck
