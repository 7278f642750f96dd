// Checker benchmarks on generated histories (docs/benchmarks.md, "Checkers").
//
// Every case is a generated history: ops (10k, 100k, 1M; 10M when
// LOCKCHECK_BENCH_10M=1), clients (10, 100), keys (1, 100), info share (0%, 5%),
// planted (0: valid, 1: one double grant). For each, every checker runs on it:
// pair_ops (shared by all), mutual-exclusion, resource, linearizability,
// liveness, and all (run_checkers, pair_ops included). Counters:
//   items_per_second  history ops checked per second;
//   peak_MB           peak resident memory while checking (the history included);
//   check_MB          peak minus the resident memory before checking (the checker's own);
//   verdict           1 valid, 0 invalid, 0.5 unknown.
// Filter with --benchmark_filter, e.g. 'linearizability/ops:1000000'.
//
// One adversarial case besides: CHECKER/overlapping-holders:3000, 3,000
// holders of one key all granted before any releases (4,498,500 overlapping
// pairs; bench::generate_overlapping_holders). And many open locks
// (issue 33): mutual-exclusion/open-locks:N, N holders that never release
// and N more that each acquire and release after them (bench::generate_open_locks:
// 20,000 make 599,990,000 overlapping pairs, 50,000 make 3,749,975,000), with
// pairwise-sweep/open-locks:N beside it: the sweep that visits every pair
// (sweep_overlaps_pairwise, what mutual-exclusion did before), for the
// before/after figure of docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "bench/history_generator.hpp"
#include "checkers/checker_names.hpp"
#include "checkers/linearizability.hpp"
#include "checkers/liveness.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/overlap_sweep.hpp"
#include "checkers/resource.hpp"
#include "checkers/run_checkers.hpp"
#include "checkers/transactional_sessions.hpp"

namespace {

using namespace lockcheck;
using Partner = std::vector<std::int64_t>;

struct Case {
    std::size_t ops;
    int clients, keys, info_pct;
    bool planted;
    bool operator==(const Case&) const = default;
};

// One generated history at a time: benchmarks are registered case by case, so
// all checkers of a case reuse it and memory holds a single history.
struct Loaded {
    Case c;
    History history;
    Partner partner;
};
std::unique_ptr<Loaded> loaded;

const Loaded& load(const Case& c) {
    if (!loaded || !(loaded->c == c)) {
        loaded.reset();
        bench::GeneratorOptions o;
        o.ops = c.ops;
        o.clients = c.clients;
        o.keys = c.keys;
        o.info = c.info_pct / 100.0;
        o.plant_violation = c.planted;
        o.seed = 42;
        auto history = bench::generate_history(o);
        auto partner = pair_ops(history);
        loaded = std::make_unique<Loaded>(Loaded{c, std::move(history), std::move(partner)});
    }
    return *loaded;
}

double status_mb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::stod(line.substr(std::string(field).size())) / 1024.0;
    return 0;
}

void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

double verdict_counter(Validity v) { return v == Validity::Valid ? 1.0 : v == Validity::Invalid ? 0.0 : 0.5; }

using Check = std::function<Validity(const History&, const Partner&)>;

void run_on(benchmark::State& state, const Loaded& l, const Check& check) {
    const double before = status_mb("VmRSS:");
    reset_peak();
    Validity v = Validity::Valid;
    for (auto _ : state) {
        v = check(l.history, l.partner);
        benchmark::ClobberMemory();
    }
    const double peak = status_mb("VmHWM:");
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(l.history.size()));
    state.counters["peak_MB"] = peak;
    state.counters["check_MB"] = peak - before;
    state.counters["verdict"] = verdict_counter(v);
}

void run(benchmark::State& state, Case c, const Check& check) { run_on(state, load(c), check); }

void run_overlapping(benchmark::State& state, int holders, const Check& check) {
    loaded.reset();  // one history in memory at a time
    auto history = bench::generate_overlapping_holders(holders);
    auto partner = pair_ops(history);
    const Loaded overlapping{Case{history.size(), holders, 1, 0, true}, std::move(history), std::move(partner)};
    run_on(state, overlapping, check);
}

void run_open_locks(benchmark::State& state, int open, const Check& check) {
    loaded.reset();
    auto history = bench::generate_open_locks(open, open);
    auto partner = pair_ops(history);
    const Loaded locks{Case{history.size(), 2 * open, 1, 0, true}, std::move(history), std::move(partner)};
    run_on(state, locks, check);
}

/// The overlaps of a lock history tallied by visiting every pair: the mutual-exclusion sweep before issue 33.
Validity pairwise_sweep(const History& h, const Partner& p) {
    auto sessions = extract_sessions(h, p);
    const auto rolled_back = end_transactional_sessions(h, p, sessions);
    return sweep_overlaps_pairwise(sessions, rolled_back).overlaps == 0 ? Validity::Valid : Validity::Invalid;
}

const std::vector<std::pair<std::string, Check>>& checkers() {
    static const std::vector<std::pair<std::string, Check>> all = {
        {"pair_ops",
         [](const History& h, const Partner&) {
             benchmark::DoNotOptimize(pair_ops(h));
             return Validity::Valid;
         }},
        {std::string(checker_name::kMutualExclusion),
         [](const History& h, const Partner& p) { return check_mutual_exclusion(h, p).valid; }},
        {std::string(checker_name::kResource),
         [](const History& h, const Partner& p) { return check_resource(h, p).valid; }},
        {std::string(checker_name::kLinearizability),
         [](const History& h, const Partner& p) { return check_linearizability(h, p).valid; }},
        {std::string(checker_name::kLiveness),
         [](const History& h, const Partner& p) { return check_liveness(h, p).valid; }},
        {"all", [](const History& h, const Partner&) { return run_checkers(h).valid; }},
    };
    return all;
}

void register_all() {
    std::vector<std::size_t> sizes{10'000, 100'000, 1'000'000};
    if (const char* big = std::getenv("LOCKCHECK_BENCH_10M"); big && std::string(big) == "1")
        sizes.push_back(10'000'000);
    for (std::size_t ops : sizes)
        for (int clients : {10, 100})
            for (int keys : {1, 100})
                for (int info : {0, 5})
                    for (bool planted : {false, true}) {
                        const Case c{ops, clients, keys, info, planted};
                        for (const auto& [name, check] : checkers()) {
                            const std::string id = name + "/ops:" + std::to_string(ops) +
                                                   "/clients:" + std::to_string(clients) +
                                                   "/keys:" + std::to_string(keys) + "/info:" + std::to_string(info) +
                                                   "/planted:" + (planted ? "1" : "0");
                            benchmark::RegisterBenchmark(id.c_str(),
                                                         [c, check = check](benchmark::State& s) { run(s, c, check); })
                                ->Unit(benchmark::kMillisecond)
                                ->MinTime(ops >= 1'000'000 ? 0.01 : 0.2);
                        }
                    }
    constexpr int kHolders = 3000;
    for (const auto& [name, check] : checkers()) {
        if (name != checker_name::kMutualExclusion && name != "all") continue;
        const std::string id = name + "/overlapping-holders:" + std::to_string(kHolders);
        benchmark::RegisterBenchmark(id.c_str(),
                                     [check = check](benchmark::State& s) { run_overlapping(s, kHolders, check); })
            ->Unit(benchmark::kMillisecond)
            ->MinTime(0.01);
    }
    for (const int open : {20'000, 50'000}) {
        const Check me = [](const History& h, const Partner& p) { return check_mutual_exclusion(h, p).valid; };
        for (const auto& [name, check] : {std::pair{std::string(checker_name::kMutualExclusion), me},
                                          std::pair{std::string("pairwise-sweep"), Check(pairwise_sweep)}}) {
            const std::string id = name + "/open-locks:" + std::to_string(open);
            benchmark::RegisterBenchmark(id.c_str(),
                                         [open, check = check](benchmark::State& s) { run_open_locks(s, open, check); })
                ->Unit(benchmark::kMillisecond)
                ->MinTime(0.01);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
