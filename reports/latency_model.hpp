// The latency plot of report.html, as Jepsen draws it: latency quantiles per
// time bucket over every op, plus single ops as points. When there are more
// ops than points to draw, every op slower than the run's p99 is kept (the
// slow ones are what a reader looks for) and the rest are spaced evenly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/history.hpp"

namespace lockcheck {

struct LatencyPoint {
    std::int64_t time_ns = 0;  ///< invoke time
    double ms = 0;
    std::string f;
    std::string outcome;      ///< ok | fail | info
    std::int64_t op = kNoOp;  ///< index of the invoke
};

/// Latency quantiles of the ops invoked in one time bucket.
struct LatencyBucket {
    std::int64_t start_ns = 0;
    std::size_t count = 0;
    double p50 = 0, p95 = 0, p99 = 0, max = 0;  ///< ms; 0 when count is 0
};

struct LatencyModel {
    std::vector<LatencyPoint> points;    ///< what is drawn, by invoke time
    std::size_t total = 0;               ///< completed client ops
    double p99_ms = 0;                   ///< over all ops
    std::size_t slow_total = 0;          ///< ops slower than p99_ms
    std::size_t slow_drawn = 0;          ///< of those, drawn (all unless they alone exceed the cap)
    std::vector<LatencyBucket> buckets;  ///< one per throughput bucket
};

/// `partner` pairs invokes and completions (pair_ops). Buckets are
/// [start_ns + i * bucket_ns, +bucket_ns) for i < bucket_count. Pure.
LatencyModel build_latency_model(const History& history, const std::vector<std::int64_t>& partner,
                                 std::int64_t start_ns, std::int64_t bucket_ns, std::size_t bucket_count,
                                 std::size_t max_points);

}  // namespace lockcheck
