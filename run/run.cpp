#include "run/run.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <stop_token>
#include <thread>

#include "core/atomic_file.hpp"
#include "clusters/network/peer_links.hpp"
#include "clusters/power_loss.hpp"
#include "clusters/servers/server_credentials.hpp"
#include "clusters/topologies/topology.hpp"
#include "core/counted.hpp"
#include "core/interruptible_sleep.hpp"
#include "core/utf8_text.hpp"
#include "host/line_channel.hpp"
#include "host/run_containment.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/nemesis.hpp"
#include "nemesis/proxied_network.hpp"
#include "reports/results_json.hpp"
#include "run/dead_runs.hpp"
#include "run/exit_codes.hpp"
#include "run/expectation_watch.hpp"
#include "run/progress.hpp"
#include "run/run_directory.hpp"
#include "run/run_liveness.hpp"
#include "run/run_outputs.hpp"
#include "run/run_preflight.hpp"
#include "run/run_scratch.hpp"
#include "run/run_cluster.hpp"
#include "run/run_context.hpp"
#include "run/run_setup.hpp"
#include "run/run_workers.hpp"
#include "spec/run_plan.hpp"
#include "workers/history_recorder.hpp"
#include "workers/worker_launch.hpp"
#include "workers/workload_runner.hpp"

namespace lockcheck {
namespace {

/// Threads of a run; on destruction requests `stop` and joins them all.
class RunThreads {
public:
    explicit RunThreads(std::stop_source& stop) : stop_(stop) {}
    ~RunThreads() { join(); }
    template <typename F>
    void start(F&& body) {
        threads_.emplace_back(std::forward<F>(body));
    }
    void join() {
        stop_.request_stop();
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }

private:
    std::stop_source& stop_;
    std::vector<std::thread> threads_;
};

/// How often --stop-on-decided checks the history recorded so far (at least).
constexpr std::chrono::milliseconds kLiveCheckInterval{500};

/// The spec's explicit schedule, or the one its seed generates, each event
/// given its fault's options from the spec so that nemesis-schedule.json
/// reads back as an explicit schedule that runs the same faults.
std::vector<FaultEvent> make_schedule(const RunPlan& plan) {
    const Spec& spec = plan.spec;
    if (spec.schedule) return *spec.schedule;
    ScheduleOptions o;
    o.seed = *spec.seed;
    o.kinds = spec.nemesis;
    o.time_limit_ms = static_cast<std::int64_t>(spec.time_limit_s * 1000);
    o.gap_min_ms = spec.nemesis_gap_ms.min;
    o.gap_max_ms = spec.nemesis_gap_ms.max;
    o.duration_min_ms = spec.fault_duration().min;
    o.duration_max_ms = spec.fault_duration().max;
    auto schedule = generate_schedule(o);
    for (auto& event : schedule) event.options = find_resolved_fault(plan.faults, event.kind)->stored_options;
    return schedule;
}

void set_up_log(const std::filesystem::path& path) {
    auto logger = spdlog::basic_logger_mt("lockcheck-" + path.parent_path().filename().string(), path.string(), true);
    logger->set_level(spdlog::level::info);
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
}

/// The run's faults, from the plan's, acting on the cluster and the workers.
std::map<std::string, std::unique_ptr<Fault>> make_run_faults(const RunContext& run, const RunCluster& cluster,
                                                              RunWorkers& workers,
                                                              const std::vector<FaultEvent>& schedule) {
    const FaultTargets targets{workers.pool,
                               *cluster.topology,
                               cluster.network.uses_namespaces(),
                               run.credentials.client_password,
                               run.options.interrupted,
                               cluster.proxy.get(),
                               cluster.peer_links.get(),
                               cluster.worker_clock ? run.dir.path / "workers" : std::filesystem::path()};
    return make_schedule_faults(schedule, targets, run.plan.faults, OptionContext{run.plan.spec.ttl_ms});
}

/// What each slot of the workload works with: the lock keys, the spec's
/// times, and the capabilities the first worker's hello announced.
WorkloadOptions workload_options(const RunContext& run, const RunWorkers& workers) {
    const Spec& spec = run.plan.spec;
    std::vector<std::string> keys;
    for (int k = 0; k < spec.keys; ++k) keys.push_back(spec.keys == 1 ? "lock" : fmt::format("lock-{}", k));
    return {keys,
            spec.ttl_ms,
            spec.hold_ms,
            spec.think_ms,
            spec.hold_timed_by == "client",
            std::chrono::milliseconds(spec.op_timeout_ms),
            *spec.seed,
            workers.pool.worker(0)->hello().supports,
            run.options.interrupted,
            std::chrono::milliseconds(spec.server_timeout_ms) + LineChannel::kInterruptGrace};
}

/// Runs the nemesis and every slot of the workload, with the progress line,
/// until the time limit, max_ops, every slot stopping, an early decision
/// (--stop-on-decided) or an interrupt; then the nemesis heals and every
/// worker finishes its cycle, and `after_workload` runs while every node,
/// restarted ones included, still runs. Fills in why the run stopped.
void drive(const RunContext& run, RunWorkers& workers, Nemesis& nemesis, WorkloadRunner& workload, RunFigures& figures,
           const std::function<void()>& after_workload) {
    const int slots = run.plan.spec.workers;
    const double limit = run.plan.spec.time_limit_s;
    // Only the lock cycle takes locks; the stock and unique-id loops have no overlaps to count.
    const bool takes_locks = workload.workload().capability.empty();
    ProgressDisplay progress([&] {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - workers.start).count();
        const auto fault = nemesis.current();
        return fmt::format("[{:6.1f} s / {:.0f} s] {} ops | fault: {}{}", elapsed, limit, workers.recorder.count(),
                           fault.empty() ? "none" : fault,
                           takes_locks ? fmt::format(" | overlaps so far: {}", workers.live.overlaps()) : "");
    });
    {
        RunThreads threads(run.stop);
        threads.start([&] {
            nemesis.run(run.stop.get_token());
            // A node the nemesis restarted is a child of this thread and dies with
            // it (PDEATHSIG, host/child_process.hpp): keep the thread alive
            // until the workers have finished their last cycle (bounded: 60 s).
            poll_until([&] { return workload.slots_stopped() >= slots; }, std::chrono::seconds(60),
                       std::chrono::milliseconds(20), std::stop_token{});
            after_workload();  // the nodes it restarted still run
        });
        for (int slot = 0; slot < slots; ++slot)
            threads.start([&, slot] { workload.run_slot(slot, run.stop.get_token()); });
        if (workers.watch)
            threads.start([&] {
                figures.stopped_early = workers.watch->watch(run.stop.get_token(), kLiveCheckInterval);
                if (figures.stopped_early) run.stop.request_stop();  // the graceful stop, as at the time limit
            });
        const auto deadline = workers.start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                  std::chrono::duration<double>(limit));
        poll_until([&] { return workers.recorder.full() || workload.slots_stopped() >= slots; },
                   deadline - std::chrono::steady_clock::now(), std::chrono::milliseconds(50), run.stop.get_token());
        figures.interrupted = run.options.interrupted.stop_requested();
        const bool full = workers.recorder.full();
        threads.join();  // the nemesis heals, every worker finishes its cycle
        spdlog::info("stopped: {}", figures.interrupted     ? "interrupted"
                                    : figures.stopped_early ? figures.stopped_early->reason
                                    : full                  ? "max_ops reached"
                                                            : "time limit");
    }
    progress.stop();
}

/// The servers' own record of the run into the run directory, when the
/// topology's servers keep one (TopologyDescriptor::read_server_record); an
/// interrupted run reads none. Logged; the witness checker reads the file.
void read_server_record(const RunContext& run, Topology& topology) {
    const auto& read = run.plan.topology->read_server_record;
    if (!read) return;
    if (run.options.interrupted.stop_requested()) {
        ServerRecordOutcome interrupted;
        interrupted.server = run.plan.spec.topology;
        interrupted.why = "the run was interrupted";
        write_server_record(run.dir.path / kServerRecordFile, interrupted, nlohmann::json::object(), {});
        return;
    }
    const ServerRecordOutcome outcome = read(topology, run.dir.path);
    if (outcome.read)
        spdlog::info("the servers' record: {} events read in {:.2f} s", outcome.events, outcome.seconds);
    else
        spdlog::warn("the servers' record was not read ({:.2f} s): {}", outcome.seconds, outcome.why);
}

/// Everything between "the run directory exists" and "all processes, links
/// and cgroups of the run are gone". Throws on harness errors, after cleanup.
RunFigures execute(const RunPlan& plan, NetworkMode network_mode, const RunDirectory& dir, const RunOptions& options) {
    RunFigures figures;
    std::stop_source stop;
    const std::stop_callback interrupt_stops_run(options.interrupted, [&] { stop.request_stop(); });
    const ServerCredentials credentials = fresh_server_credentials();
    const RunScratch scratch(dir.path, dir.run_id);  // removed last, when nothing can write into it any more
    // Whatever the run started and is still there dies here, after everything else is torn down.
    const RunContainment containment(dir.run_id);
    const RunContext run{plan, dir, options, stop, credentials};
    RunCluster cluster(run, network_mode, scratch.dir());
    figures.namespaces = cluster.network.uses_namespaces();
    RunWorkers workers(run, cluster);
    figures.workers_ready_seconds = workers.ready_seconds();
    figures.client = workers.announce_client();

    const auto schedule = make_schedule(plan);
    write_json_file(dir.path / "nemesis-schedule.json", schedule_to_json(schedule));
    Nemesis nemesis(
        schedule, make_run_faults(run, cluster, workers, schedule),
        [&](Op op) { workers.recorder.record(std::move(op)); }, workers.start, &workers.pool);
    WorkloadRunner workload(workload_options(run, workers), workers.pool, workers.recorder, workers.resource,
                            workers.live);
    drive(run, workers, nemesis, workload, figures, [&] { read_server_record(run, *cluster.topology); });

    workers.pool.stop_all();
    if (cluster.proxy) spdlog::info("{}", cluster.proxy->summary());
    if (cluster.peer_links) spdlog::info("{}", cluster.peer_links->summary());
    figures.filesystem_failure = data_filesystem_failure(*cluster.topology).value_or("");
    cluster.topology->stop();
    figures.ops = workers.recorder.count();
    figures.workers = plan.spec.workers;
    figures.workers_failed = workload.slots_failed();
    figures.worker_failure = workload.first_failure();
    figures.faults = nemesis.faults_started();
    figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - workers.start).count();
    return figures;  // network torn down by its destructor
}

/// execute(), with what its exception means: a combination this run cannot do
/// (std::invalid_argument, e.g. a fault needing root) is the spec's fault,
/// anything else the harness's. Both are logged.
RunFigures execute_or_explain(const RunPlan& plan, NetworkMode network_mode, const RunDirectory& dir,
                              const RunOptions& options) {
    try {
        return execute(plan, network_mode, dir, options);
    } catch (const std::invalid_argument& e) {
        spdlog::error("spec error: {}", e.what());
        throw SpecError(fmt::format("spec {}: {}", plan.spec.name, e.what()));
    } catch (const std::exception& e) {
        spdlog::error("harness error: {}", e.what());
        throw HarnessError(e.what());
    }
}

/// The run, filling `outcome` as it learns each part (the run directory as
/// soon as it exists); returns the exit code. Throws on failures after
/// cleaning up.
int run_into(Spec validated, const RunOptions& options, RunOutcome& outcome) {
    RunPlan plan = plan_run(std::move(validated));
    const Spec& spec = plan.spec;
    if (const auto refusal = host_refusal(plan, options.self_exe))
        throw SpecError("spec " + spec.name + ": " + *refusal);
    const NetworkMode network_mode = preflight_network(plan);  // refusals before anything is made
    if (!spec.seed)
        plan.spec.seed = std::random_device{}() | (static_cast<std::uint64_t>(std::random_device{}()) << 32);
    const RunDirectory dir = create_run_directory(options.store, spec.name);
    std::error_code ec;
    outcome.run_dir = std::filesystem::canonical(dir.path, ec);
    if (ec) outcome.run_dir = std::filesystem::absolute(dir.path);
    const RunAliveLock alive(dir.run_id);
    write_json_file(dir.path / "spec.json", spec_to_json(spec));
    set_up_log(dir.path / "lockcheck.log");
    const auto cleaned = clean_dead_runs(dir.run_id);
    for (const auto& id : cleaned.dead_runs) spdlog::info("cleaned what dead run {} left", id);

    const std::string nemesis = spec.nemesis.empty() ? "none" : fmt::format("{}", fmt::join(spec.nemesis, "+"));
    std::printf("lockcheck run %s: %s on %s, %d workers, ttl %lld ms, nemesis %s, fencing %s\n", spec.name.c_str(),
                spec.recipe.c_str(), spec.topology.c_str(), spec.workers, static_cast<long long>(spec.ttl_ms),
                nemesis.c_str(), spec.fencing ? "on" : "off");
    std::printf("seed %llu | run directory %s\n", static_cast<unsigned long long>(*spec.seed), dir.path.c_str());
    std::fflush(stdout);

    const RunFigures figures = execute_or_explain(plan, network_mode, dir, options);
    outcome.interrupted = figures.interrupted;
    CheckedHistory checked = conclude_run(spec, dir, figures, options.expectation_not_applicable);
    outcome.verdict = checked.report.valid;
    outcome.results = std::move(checked.results);
    outcome.expectation = std::move(checked.expectation);
    if (!figures.filesystem_failure.empty())  // checked and kept, but the run did not do what the spec asked
        throw HarnessError("the lose-unsynced filesystem failed: " + figures.filesystem_failure);
    if (figures.workers_failed == figures.workers)  // nothing recorded is lost, but the run could not go on
        throw HarnessError("every worker stopped: " + figures.worker_failure);
    if (figures.workers_failed > 0)
        std::fprintf(stderr, "warning: %d of %d workers stopped early: %s (see lockcheck.log)\n",
                     figures.workers_failed, figures.workers, figures.worker_failure.c_str());
    return exit_code::for_verdict(*outcome.verdict);
}

}  // namespace

RunOutcome run_spec(Spec spec, const RunOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    RunOutcome outcome;
    outcome.exit_code = exit_code_of([&] { return run_into(std::move(spec), options, outcome); });
    outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

}  // namespace lockcheck
