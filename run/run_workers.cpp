#include "run/run_workers.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

#include "clusters/servers/server_credentials.hpp"
#include "core/counted.hpp"
#include "core/utf8_text.hpp"
#include "workers/worker_launch.hpp"

namespace lockcheck {
namespace {

/// How long the workers of a run (all starting at once) and a replacement
/// worker have to answer init.
constexpr std::chrono::seconds kWorkerHelloTimeout{10};

/// How much of a worker's `client` string a run keeps (it is free text from another program).
constexpr std::size_t kClientNameBytes = 200;

/// The pool of a run's workers, each started as the plan says and reaching
/// the nodes through the cluster (its proxy's links of it, when there is one).
WorkerPool make_worker_pool(const RunContext& run, RunCluster& cluster, LiveState& live) {
    const auto login = client_credentials(run.plan.spec.topology, run.credentials);
    return WorkerPool(
        run.plan.spec.workers,
        [run, &cluster, login](int process) {
            const auto launch =
                worker_launch(run.plan.spec, cluster.proxy ? cluster.proxy->endpoints_for(process) : cluster.endpoints,
                              login, run.options.self_exe, run.dir.path, run.dir.run_id, process,
                              cluster.fork_server.get(), cluster.worker_clock);
            return std::make_unique<WorkerProcess>(launch.child, launch.init);
        },
        live, kWorkerHelloTimeout,
        [&cluster](int process) {
            if (cluster.proxy) cluster.proxy->drop_worker(process);
        },
        // A forked worker dies with this thread (the fork server's parent: the worker's parent too) or, where the
        // server double-forks, with the controller's main thread; an exec'd one with the thread that spawned it.
        cluster.fork_server ? ForkServer::kSpawnsInFlight : 1);
}
/// --stop-on-decided's watch, for a scenario whose expectation it can decide early; none otherwise.
std::optional<ExpectationWatch> early_watch(const RunContext& run) {
    if (!run.options.stop_on_decided || !ExpectationWatch::decides_early(run.plan.spec.expect)) return std::nullopt;
    return std::optional<ExpectationWatch>(std::in_place, *run.plan.spec.expect);
}

}  // namespace

RunWorkers::RunWorkers(const RunContext& run, RunCluster& cluster)
    : starting(std::chrono::steady_clock::now()),
      pool(make_worker_pool(run, cluster, live)),
      // The run's clock, the time limit and the fault schedule start here, when
      // every worker is ready for its first op: starting them is not workload.
      start(std::chrono::steady_clock::now()),
      watch(early_watch(run)),
      recorder(run.dir.path / "history.jsonl", start, run.plan.spec.max_ops,
               watch ? HistoryRecorder::Observer([this](const Op& op) { watch->observe(op); })
                     : HistoryRecorder::Observer()),
      resource(run.plan.spec.fencing) {
    spdlog::info("{} answered init in {:.3f} s", counted(run.plan.spec.workers, "worker"), ready_seconds());
}

std::string RunWorkers::announce_client() const {
    std::string client = printable_excerpt(pool.worker(0)->hello().client, kClientNameBytes);
    std::printf("client: %s\n", client.empty() ? "(its hello names none)" : client.c_str());
    std::fflush(stdout);
    spdlog::info("client: {}", client);
    return client;
}

}  // namespace lockcheck
