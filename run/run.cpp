#include "run/run.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <stop_token>
#include <thread>

#include "clusters/network/peer_links.hpp"
#include "clusters/power_loss.hpp"
#include "host/run_containment.hpp"
#include "clusters/servers/server_credentials.hpp"
#include "clusters/topologies/topology.hpp"
#include "core/counted.hpp"
#include "core/interruptible_sleep.hpp"
#include "core/utf8_text.hpp"
#include "run/dead_runs.hpp"
#include "run/exit_codes.hpp"
#include "run/expectation_watch.hpp"
#include "workers/history_recorder.hpp"
#include "run/progress.hpp"
#include "run/run_directory.hpp"
#include "run/run_liveness.hpp"
#include "run/run_outputs.hpp"
#include "run/run_preflight.hpp"
#include "run/run_scratch.hpp"
#include "run/run_setup.hpp"
#include "host/line_channel.hpp"
#include "workers/worker_launch.hpp"
#include "workers/workload_runner.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/nemesis.hpp"
#include "nemesis/proxied_network.hpp"
#include "reports/results_json.hpp"

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

std::string join(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

/// How long the workers of a run (all starting at once) and a replacement
/// worker have to answer init.
constexpr std::chrono::seconds kWorkerHelloTimeout{10};

/// How often --stop-on-decided checks the history recorded so far (at least).
constexpr std::chrono::milliseconds kLiveCheckInterval{500};

/// How much of a worker's `client` string a run keeps (it is free text from another program).
constexpr std::size_t kClientNameBytes = 200;

/// The spec's explicit schedule, or the one its seed generates, each event
/// given its fault's options from the spec so that nemesis-schedule.json
/// reads back as an explicit schedule that runs the same faults.
std::vector<FaultEvent> make_schedule(const Spec& spec) {
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
    for (auto& event : schedule) event.options = options_of_fault(event.kind, spec.fault_options);
    return schedule;
}

void set_up_log(const std::filesystem::path& path) {
    auto logger = spdlog::basic_logger_mt("lockcheck-" + path.parent_path().filename().string(), path.string(), true);
    logger->set_level(spdlog::level::info);
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
}

/// Everything between "the run directory exists" and "all processes, links
/// and cgroups of the run are gone". Throws on harness errors, after cleanup.
RunFigures execute(const Spec& spec, NetworkMode network_mode, const RunDirectory& dir, const RunOptions& options) {
    RunFigures figures;
    // The run's stop: the time limit, max_ops, every slot stopping, or an interrupt.
    std::stop_source stop;
    const std::stop_callback interrupt_stops_run(options.interrupted, [&] { stop.request_stop(); });
    const ServerCredentials credentials = fresh_server_credentials();
    const RunScratch scratch(dir.path, dir.run_id);  // removed last, when nothing can write into it any more
    // Whatever the run started and is still there dies here, after everything else is torn down.
    const RunContainment containment(dir.run_id);

    TopologyOptions topology_options = topology_options_for(spec, dir.path / "nodes", options.self_exe);
    topology_options.scratch_dir = scratch.dir();
    topology_options.credentials = credentials;
    topology_options.interrupt = options.interrupted;
    if (topology_options.unsynced_data) {
        topology_options.unsynced_data->run_id = dir.run_id;
        // A dead filesystem daemon (its mount detached already) ends the run:
        // what it holds from then on is no power loss the scenario asked for.
        topology_options.unsynced_data->on_failure = [&stop](const std::string& message) {
            spdlog::error("{}; stopping the run", message);
            stop.request_stop();
        };
    }
    std::vector<std::string> host_addresses;
    for (const auto& host : topology_options.hosts) host_addresses.push_back(host.address);
    TestNetwork network(dir.run_id, topology_node_count(topology_options), network_mode, host_addresses);
    figures.namespaces = network.uses_namespaces();
    if (!network.uses_namespaces())
        std::printf(
            "note: no network namespaces (needs root): nodes run on %s; packet-loss is unavailable, partition "
            "and failover cut the servers' links through the fault proxy\n",
            network.address(0).c_str());
    spdlog::info("network: {} ({} nodes, first at {})",
                 network.uses_docker()  ? "docker"
                 : network.uses_hosts() ? "hosts (runtime ssh)"
                 : figures.namespaces   ? "namespaces"
                                        : "loopback",
                 network.node_count(), network.address(0));
    // In loopback mode a partition or failover cuts the servers' peer links in the fault proxy: the
    // topology is built with its peers talking through them. Destroyed after the topology stops.
    std::unique_ptr<PeerLinks> peer_links;
    if (!network.uses_namespaces() && nemesis_cuts_peers(spec)) {
        peer_links = std::make_unique<PeerLinks>();
        topology_options.peer_links = peer_links.get();
    }

    // Built-in workers are forked from one started worker (host/fork_server.hpp), a user's
    // client_cmd is exec'd. Started before the topology, so that it loads while the servers
    // start; ended after the workers (declared before the pool).
    std::filesystem::create_directories(dir.path / "workers");
    // client-clock-skew: every worker exec'd with the clock library and an offset file of its own.
    const auto worker_clock = worker_clock_library(spec, options.self_exe);
    if (const auto warning = shell_client_clock_warning(spec, worker_clock.has_value()); !warning.empty()) {
        spdlog::warn("{}", warning);
        std::fprintf(stderr, "warning: %s\n", warning.c_str());
    }
    std::unique_ptr<ForkServer> fork_server;
    if (!spec.client_cmd && !worker_clock) {
        fork_server =
            std::make_unique<ForkServer>(fork_server_argv(options.self_exe, dir.run_id), fork_server_log(dir.path));
        spdlog::info("workers are forked from the fork server, pid {}", fork_server->pid());
    }

    auto topology = make_topology(topology_options, network);
    topology->start();
    make_data_durable(*topology);  // what the servers wrote while starting is no acknowledged write
    const auto endpoints = topology->client_endpoints();
    spdlog::info("topology {} ready: {}", spec.topology, join(endpoints, ", "));
    // With a proxy fault in the nemesis, every worker reaches the nodes through links of its own in the
    // run's fault proxy; otherwise there is no proxy. Made before the workers, gone after them.
    std::unique_ptr<ProxiedNetwork> proxy;
    if (nemesis_needs_proxy(spec)) {
        proxy = std::make_unique<ProxiedNetwork>(endpoints, *spec.seed);
        spdlog::info("fault proxy in front of {}: workers connect through it", join(endpoints, ", "));
    }

    LiveState live;
    const auto workers_starting = std::chrono::steady_clock::now();
    WorkerPool pool(
        spec.workers,
        [&](int process) {
            const auto launch = worker_launch(spec, proxy ? proxy->endpoints_for(process) : endpoints,
                                              client_credentials(spec.topology, credentials), options.self_exe,
                                              dir.path, dir.run_id, process, fork_server.get(), worker_clock);
            return std::make_unique<WorkerProcess>(launch.child, launch.init);
        },
        live, kWorkerHelloTimeout,
        [&](int process) {
            if (proxy) proxy->drop_worker(process);
        },
        // A forked worker dies with this thread (the fork server's parent: the worker's parent too) or, where the
        // server double-forks, with the controller's main thread; an exec'd one with the thread that spawned it.
        fork_server ? ForkServer::kSpawnsInFlight : 1);
    // The run's clock, the time limit and the fault schedule start here, when
    // every worker is ready for its first op: starting them is not workload.
    const auto start = std::chrono::steady_clock::now();
    figures.workers_ready_seconds = std::chrono::duration<double>(start - workers_starting).count();
    spdlog::info("{} answered init in {:.3f} s", counted(spec.workers, "worker"), figures.workers_ready_seconds);
    std::optional<ExpectationWatch> watch;  // --stop-on-decided, for a scenario that expects invalid
    if (options.stop_on_decided && ExpectationWatch::decides_early(spec.expect)) watch.emplace(*spec.expect);
    HistoryRecorder recorder(dir.path / "history.jsonl", start, spec.max_ops,
                             watch ? HistoryRecorder::Observer([&watch](const Op& op) { watch->observe(op); })
                                   : HistoryRecorder::Observer());
    ProtectedResource resource(spec.fencing);

    // The client the workers said they are (their hello), for the header and every record of the run.
    figures.client = printable_excerpt(pool.worker(0)->hello().client, kClientNameBytes);
    std::printf("client: %s\n", figures.client.empty() ? "(its hello names none)" : figures.client.c_str());
    std::fflush(stdout);
    spdlog::info("client: {}", figures.client);

    const auto schedule = make_schedule(spec);
    write_json_file(dir.path / "nemesis-schedule.json", schedule_to_json(schedule));
    Nemesis nemesis(
        schedule,
        make_schedule_faults(
            schedule,
            {pool, *topology, network.uses_namespaces(), credentials.client_password, options.interrupted, proxy.get(),
             peer_links.get(), worker_clock ? dir.path / "workers" : std::filesystem::path()},
            spec.fault_options, OptionContext{spec.ttl_ms}),
        [&](Op op) { recorder.record(std::move(op)); }, start, &pool);

    std::vector<std::string> keys;
    for (int k = 0; k < spec.keys; ++k) keys.push_back(spec.keys == 1 ? "lock" : fmt::format("lock-{}", k));
    WorkloadRunner workload(
        {keys, spec.ttl_ms, spec.hold_ms, spec.think_ms, spec.hold_timed_by == "client",
         std::chrono::milliseconds(spec.op_timeout_ms), *spec.seed,
         pool.worker(0)->hello().supports, options.interrupted,
         std::chrono::milliseconds(spec.server_timeout_ms) + LineChannel::kInterruptGrace},
        pool, recorder, resource, live);

    const double limit = spec.time_limit_s;
    // Only the lock cycle takes locks; the stock and unique-id loops have no overlaps to count.
    const bool takes_locks = workload.workload().capability.empty();
    ProgressDisplay progress([&] {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const auto fault = nemesis.current();
        return fmt::format("[{:6.1f} s / {:.0f} s] {} ops | fault: {}{}", elapsed, limit, recorder.count(),
                           fault.empty() ? "none" : fault,
                           takes_locks ? fmt::format(" | overlaps so far: {}", live.overlaps()) : "");
    });
    {
        RunThreads threads(stop);
        threads.start([&] {
            nemesis.run(stop.get_token());
            // A node the nemesis restarted is a child of this thread and dies with
            // it (PDEATHSIG, host/child_process.hpp): keep the thread alive
            // until the workers have finished their last cycle (bounded: 60 s).
            poll_until([&] { return workload.slots_stopped() >= spec.workers; }, std::chrono::seconds(60),
                       std::chrono::milliseconds(20), std::stop_token{});
        });
        for (int slot = 0; slot < spec.workers; ++slot)
            threads.start([&, slot] { workload.run_slot(slot, stop.get_token()); });
        if (watch)
            threads.start([&] {
                figures.stopped_early = watch->watch(stop.get_token(), kLiveCheckInterval);
                if (figures.stopped_early) stop.request_stop();  // the graceful stop, as at the time limit
            });
        const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                          std::chrono::duration<double>(limit));
        poll_until([&] { return recorder.full() || workload.slots_stopped() >= spec.workers; },
                   deadline - std::chrono::steady_clock::now(), std::chrono::milliseconds(50), stop.get_token());
        figures.interrupted = options.interrupted.stop_requested();
        const bool full = recorder.full();
        threads.join();  // the nemesis heals, every worker finishes its cycle
        spdlog::info("stopped: {}", figures.interrupted     ? "interrupted"
                                    : figures.stopped_early ? figures.stopped_early->reason
                                    : full                  ? "max_ops reached"
                                                            : "time limit");
    }
    progress.stop();
    pool.stop_all();
    if (proxy) spdlog::info("{}", proxy->summary());
    if (peer_links) spdlog::info("{}", peer_links->summary());
    figures.filesystem_failure = data_filesystem_failure(*topology).value_or("");
    topology->stop();
    figures.ops = recorder.count();
    figures.workers = spec.workers;
    figures.workers_failed = workload.slots_failed();
    figures.worker_failure = workload.first_failure();
    figures.faults = nemesis.faults_started();
    figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return figures;  // network torn down by its destructor
}

/// execute(), with what its exception means: a combination this run cannot do
/// (std::invalid_argument, e.g. a fault needing root) is the spec's fault,
/// anything else the harness's. Both are logged.
RunFigures execute_or_explain(const Spec& spec, NetworkMode network_mode, const RunDirectory& dir,
                              const RunOptions& options) {
    try {
        return execute(spec, network_mode, dir, options);
    } catch (const std::invalid_argument& e) {
        spdlog::error("spec error: {}", e.what());
        throw SpecError(fmt::format("spec {}: {}", spec.name, e.what()));
    } catch (const std::exception& e) {
        spdlog::error("harness error: {}", e.what());
        throw HarnessError(e.what());
    }
}

/// The run, filling `outcome` as it learns each part (the run directory as
/// soon as it exists); returns the exit code. Throws on failures after
/// cleaning up.
int run_into(Spec spec, const RunOptions& options, RunOutcome& outcome) {
    validate(spec);
    if (const auto refusal = host_refusal(spec, options.self_exe))
        throw SpecError("spec " + spec.name + ": " + *refusal);
    const NetworkMode network_mode = preflight_network(spec);  // refusals before anything is made
    if (!spec.seed) spec.seed = std::random_device{}() | (static_cast<std::uint64_t>(std::random_device{}()) << 32);
    const RunDirectory dir = create_run_directory(options.store, spec.name);
    std::error_code ec;
    outcome.run_dir = std::filesystem::canonical(dir.path, ec);
    if (ec) outcome.run_dir = std::filesystem::absolute(dir.path);
    const RunAliveLock alive(dir.run_id);
    write_json_file(dir.path / "spec.json", spec_to_json(spec));
    set_up_log(dir.path / "lockcheck.log");
    const auto cleaned = clean_dead_runs(dir.run_id);
    for (const auto& id : cleaned.dead_runs) spdlog::info("cleaned what dead run {} left", id);

    std::printf("lockcheck run %s: %s on %s, %d workers, ttl %lld ms, nemesis %s, fencing %s\n", spec.name.c_str(),
                spec.recipe.c_str(), spec.topology.c_str(), spec.workers, static_cast<long long>(spec.ttl_ms),
                spec.nemesis.empty() ? "none" : join(spec.nemesis, "+").c_str(), spec.fencing ? "on" : "off");
    std::printf("seed %llu | run directory %s\n", static_cast<unsigned long long>(*spec.seed), dir.path.c_str());
    std::fflush(stdout);

    const RunFigures figures = execute_or_explain(spec, network_mode, dir, options);
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
