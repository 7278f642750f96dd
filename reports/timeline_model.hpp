// The data behind report.html: what the timeline, the plots and the violation
// list draw, derived from a history and the checkers' findings.
//
// Everything here is capped (ReportLimits) so that a 100k-op history still
// yields a page a browser draws at once; `notes` says what was left out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkers/run_checkers.hpp"
#include "core/history.hpp"
#include "reports/fault_bands.hpp"
#include "reports/latency_model.hpp"
#include "reports/violation_marks.hpp"

namespace lockcheck {

/// How much the report draws at most.
struct ReportLimits {
    std::size_t max_holds = 4000;     ///< hold bars over all keys
    std::size_t max_attempts = 4000;  ///< acquire-attempt ticks over all keys
    std::size_t max_latency_points = 3000;
    std::size_t throughput_buckets = 120;
    std::size_t max_violations = 300;   ///< markers and list entries
    std::size_t max_linked_ops = 2000;  ///< op records embedded for violations
    /// Worker lanes over all keys beyond which the timelines are drawn
    /// aggregated (reports/lane_aggregation.hpp): the page of 1M ops over 50
    /// keys x 200 workers (10,000 lanes) took 2.5-10 s to open in Chromium,
    /// by the machine's load (docs/benchmarks.md).
    std::size_t max_lanes = 400;
};

/// One lock session as drawn: from the acquire's ok to the release's
/// completion (or the history's end when it never released).
struct HoldBar {
    int process = 0;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    std::optional<std::int64_t> lease_end_ns;  ///< acquire invoke + ttl, when it asked for a lease
    std::int64_t acquire_op = kNoOp;           ///< index of the acquire's ok
    std::int64_t release_op = kNoOp;           ///< index of the release's completion, if any
    std::string owner;
    std::optional<std::int64_t> token;
    bool released = false;  ///< false: the history ended (or the release was unsure)
};

/// One acquire attempt: its invoke time and how it ended.
struct AcquireMark {
    int process = 0;
    std::int64_t time_ns = 0;
    std::int64_t op = kNoOp;             ///< index of the invoke
    std::int64_t completion_op = kNoOp;  ///< index of its completion, kNoOp when it never completed
    std::string outcome;                 ///< "ok", "held", "fail", "info" or "open" (never completed)
};

struct KeyTimeline {
    std::string key;
    std::vector<int> processes;  ///< one lane each, ascending
    std::vector<HoldBar> holds;
    std::vector<AcquireMark> attempts;
    std::size_t holds_total = 0;  ///< before the cap
    std::size_t attempts_total = 0;
    /// Drawn aggregated (reports/lane_aggregation.hpp): only the workers in
    /// `own_lanes` have a lane of their own, every other worker's bars and
    /// ticks share one lane; the page draws every lane on request.
    bool aggregated = false;
    std::vector<int> own_lanes;  ///< when aggregated: the workers a violation marked on this key cites, ascending
};

/// The findings of an advisory checker, one group per kind: shown as one
/// collapsed finding with its count, never as a failure.
struct AdvisoryGroup {
    std::string checker;
    std::string kind;
    std::size_t count = 0;  ///< every finding of this kind (listed or not)
    std::string note;       ///< why the checker is advisory (its stats' "advisory"), or ""
};

struct ThroughputBucket {
    std::int64_t start_ns = 0;
    std::int64_t ok = 0, fail = 0, info = 0;  ///< completions in the bucket
};

struct ReportModel {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    std::size_t op_count = 0;
    std::vector<KeyTimeline> keys;
    std::vector<FaultBand> faults;
    std::vector<ViolationMark> violations;  ///< those that count toward the verdict first, then advisory ones
    std::size_t violations_total = 0;
    std::vector<AdvisoryGroup> advisory;
    LatencyModel latency;
    std::int64_t bucket_ns = 1;
    std::vector<ThroughputBucket> throughput;
    nlohmann::json linked_ops = nlohmann::json::object();  ///< "index" -> op record, for violations
    std::vector<std::string> notes;                        ///< what the caps left out, in plain words
};

/// Builds the model. `report` must come from the same history; `schedule` is
/// the run's nemesis-schedule.json (null when unknown: faults that never ran
/// are then not shown). Pure.
ReportModel build_report_model(const History& history, const CheckReport& report, const ReportLimits& limits = {},
                               const nlohmann::json& schedule = nullptr);

/// The model as the JSON the page's script reads.
nlohmann::json report_model_to_json(const ReportModel& model);

}  // namespace lockcheck
