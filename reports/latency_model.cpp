#include "reports/latency_model.hpp"

#include <algorithm>
#include <cmath>

#include "reports/thinning.hpp"

namespace lockcheck {
namespace {

/// Nearest-rank quantile of sorted values.
double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

std::vector<LatencyPoint> all_points(const History& history, const std::vector<std::int64_t>& partner) {
    std::vector<LatencyPoint> points;
    points.reserve(history.size() / 2);  // an invoke and its completion per point
    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (!op.is_invoke() || op.is_nemesis() || partner[p] == kNoOp) continue;
        const Op& done = history[static_cast<std::size_t>(partner[p])];
        points.push_back({op.time, static_cast<double>(done.time - op.time) / 1e6, op.f,
                          std::string(to_string(done.type)), op.index});
    }
    return points;
}

std::vector<LatencyBucket> quantile_buckets(const std::vector<LatencyPoint>& points, std::int64_t start_ns,
                                            std::int64_t bucket_ns, std::size_t bucket_count) {
    std::vector<std::vector<double>> values(bucket_count);
    for (const auto& p : points) {
        const auto i = static_cast<std::size_t>(std::max<std::int64_t>(0, (p.time_ns - start_ns) / bucket_ns));
        values[std::min(i, bucket_count - 1)].push_back(p.ms);
    }
    std::vector<LatencyBucket> buckets(bucket_count);
    for (std::size_t i = 0; i < bucket_count; ++i) {
        auto& v = values[i];
        std::sort(v.begin(), v.end());
        buckets[i] = {start_ns + static_cast<std::int64_t>(i) * bucket_ns,
                      v.size(),
                      quantile(v, 0.5),
                      quantile(v, 0.95),
                      quantile(v, 0.99),
                      v.empty() ? 0 : v.back()};
    }
    return buckets;
}

}  // namespace

LatencyModel build_latency_model(const History& history, const std::vector<std::int64_t>& partner,
                                 std::int64_t start_ns, std::int64_t bucket_ns, std::size_t bucket_count,
                                 std::size_t max_points) {
    LatencyModel model;
    auto points = all_points(history, partner);
    model.total = points.size();
    model.buckets = quantile_buckets(points, start_ns, bucket_ns, std::max<std::size_t>(1, bucket_count));
    std::vector<double> sorted;
    sorted.reserve(points.size());
    for (const auto& p : points) sorted.push_back(p.ms);
    std::sort(sorted.begin(), sorted.end());
    model.p99_ms = quantile(sorted, 0.99);
    model.slow_total =
        static_cast<std::size_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), model.p99_ms));
    // Every slow op is kept; when they alone exceed the cap, the slowest `max_points` of them.
    const auto is_slow = [&](const LatencyPoint& p) { return p.ms > model.p99_ms; };
    double keep_from = model.p99_ms;
    if (model.slow_total > max_points && max_points > 0) keep_from = sorted[sorted.size() - max_points];
    std::size_t slow_kept = 0;
    points = thin(std::move(points), max_points, [&](const LatencyPoint& p) {
        if (!is_slow(p) || p.ms < keep_from || slow_kept >= max_points) return false;
        ++slow_kept;
        return true;
    });
    std::sort(points.begin(), points.end(),
              [](const LatencyPoint& a, const LatencyPoint& b) { return a.time_ns < b.time_ns; });
    model.slow_drawn = static_cast<std::size_t>(std::count_if(points.begin(), points.end(), is_slow));
    model.points = std::move(points);
    return model;
}

}  // namespace lockcheck
