#include "harness/command_line.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>

#include "host/fork_server_process.hpp"
#include "clusters/runtimes/node_runtime_registry.hpp"
#include "host/process_title.hpp"
#include "clusters/topologies/topology_registry.hpp"
#include "commands/certify/certify_command.hpp"
#include "commands/check_command.hpp"
#include "commands/clean_command.hpp"
#include "commands/compare/compare_command.hpp"
#include "run/exit_codes.hpp"
#include "commands/export_command.hpp"
#include "commands/images_command.hpp"
#include "commands/index_command.hpp"
#include "run/interrupts.hpp"
#include "run/run.hpp"
#include "run/run_flags.hpp"
#include "spec/scenario_catalog.hpp"
#include "commands/shrink/shrink_command.hpp"
#include "commands/suite/suite_command.hpp"
#include "reports/text_columns.hpp"
#include "nemesis/fault_registry.hpp"
#include "recipes/recipe_registry.hpp"
#include "recipes/worker_main.hpp"

namespace lockcheck {
namespace {

constexpr std::size_t kNameColumn = 25;    ///< `lockcheck list`: where descriptions start
constexpr std::size_t kOptionColumn = 29;  ///< ... and an option's meaning

/// A flag's value must be a number in (0, max]; the message says the bound in
/// words rather than as a floating-point range.
CLI::Validator positive_at_most(double max, const std::string& unit, const std::string& in_words) {
    return CLI::Validator(
        [=](const std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !(value > 0 && value <= max))
                return fmt::format("must be more than 0 and at most {} {} ({}), not '{}'", max, unit, in_words, text);
            return "";
        },
        fmt::format("(0, {}]", max));
}

/// A seed as the spec field takes it: decimal digits that fit in 64 bits
/// (CLI11 alone would wrap "-1" and 2^64 to 2^64 - 1).
CLI::Validator seed_number() {
    return CLI::Validator(
        [](const std::string& text) -> std::string {
            std::uint64_t value = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (error != std::errc() || end != text.data() + text.size())
                return fmt::format("must be an integer from 0 to {}, not '{}'",
                                   std::numeric_limits<std::uint64_t>::max(), text);
            return "";
        },
        "SEED");
}

/// One paragraph per option under its recipe or fault: name, default (when
/// it has one), meaning.
void print_options(const std::vector<OptionDescriptor>& options) {
    for (const auto& option : options) {
        const std::string shown_default =
            option.default_value.is_null() ? "" : "default " + option.default_value.dump() + ": ";
        std::printf(
            "%s", hanging_paragraph("      " + option.name, kOptionColumn, shown_default + option.description).c_str());
    }
}

int list_command() {
    std::printf("recipes:\n");
    for (const auto& r : recipe_descriptors()) {
        std::printf("%s", hanging_paragraph("  " + r.name, kNameColumn, r.description).c_str());
        print_options(r.options);
    }
    std::printf("topologies:\n");
    for (const auto& t : topology_descriptors())
        std::printf("%s", hanging_paragraph("  " + t.name, kNameColumn, t.description).c_str());
    std::printf("runtimes:\n");
    for (const auto& r : node_runtime_descriptors())
        std::printf("%s", hanging_paragraph("  " + r.name, kNameColumn, r.description).c_str());
    std::printf("nemeses:\n");
    for (const auto& f : fault_descriptors()) {
        std::printf("%s", hanging_paragraph("  " + f.name, kNameColumn, f.description).c_str());
        print_options(f.options);
    }
    std::printf("%s", scenario_list_text(default_scenarios_dir()).c_str());
    return exit_code::kValid;
}

/// Throws a CLI::ParseError when the first argument names no subcommand: CLI11
/// itself would only say that one is required.
void require_known_subcommand(CLI::App& app, int argc, const char* const* argv) {
    if (argc < 2 || argv[1][0] == '-') return;
    std::string valid;
    for (const CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name() == argv[1]) return;
        if (!sub->get_group().empty()) valid += (valid.empty() ? "" : ", ") + sub->get_name();
    }
    throw CLI::ParseError(fmt::format("unknown subcommand '{}'; the subcommands are {}", argv[1], valid),
                          CLI::ExitCodes::ExtrasError);
}

}  // namespace

int lockcheck_main(int argc, const char* const* argv) {
    CLI::App app{"lockcheck: proves or disproves the safety of distributed locks on real servers"};
    app.require_subcommand(1);

    RunFlags flags;
    auto* run = app.add_subcommand("run",
                                   "Run a scenario (a spec file, a scenario's name, flags, or the default) "
                                   "and check it");
    run->add_option("spec", flags.spec,
                    "Spec file (scenarios/redis-holder-pause.json) or scenario name (redis-holder-pause), "
                    "found from any directory (docs/usage.md)");
    run->add_option("--time-limit", flags.time_limit, "Seconds of workload")
        ->check(positive_at_most(spec_bounds::kMaxTimeLimitS, "seconds", "1 day"));
    run->add_option("--seed", flags.seed, "Seed of the fault schedule and workload (printed and stored)")
        ->check(seed_number());
    run->add_option("--workers", flags.workers, "Number of lock clients, each its own process")
        ->check(CLI::Range(1, 256));
    run->add_option("--ttl-ms", flags.ttl_ms, "Lease asked for by every acquire")
        ->check(positive_at_most(static_cast<double>(spec_bounds::kMaxDurationMs), "ms", "1 hour"));
    run->add_option("--nemesis", flags.nemesis, "Comma-separated faults (`lockcheck list` shows them) or none");
    run->add_flag("--fencing", flags.fencing, "Reject stale fencing tokens at the protected resource");
    run->add_option("--network", flags.network, "auto, netns (needs root) or loopback");
    run->add_option("--runtime", flags.runtime,
                    "Where the nodes' servers run: a runtime `lockcheck list` shows (default netns)");
    run->add_option("--hosts", flags.hosts,
                    "Runtime ssh: a JSON hosts file, node i on host i (README, \"Run against the versions you run\")");
    run->add_option("--name", flags.name, "Scenario name (the run directory's parent)");
    run->add_option("--client-cmd", flags.client_cmd,
                    "Run this command (through sh -c) as every worker: your own lock client speaking "
                    "docs/protocol.md");
    run->add_option("--store", flags.store, "Where run directories go")->capture_default_str();
    run->add_option("--replay", flags.replay,
                    "Run again a stored run directory's spec.json, same seed and fault schedule")
        ->check(CLI::ExistingDirectory)
        ->excludes("spec");
    bool run_stops_on_decided = false;
    run->add_flag("--stop-on-decided,!--no-stop-on-decided", run_stops_on_decided,
                  "Stop a scenario that expects invalid once its expectation is met (default: off in run)");

    std::string suite_selector;
    auto* suite =
        app.add_subcommand("suite", "Run scenarios (all, a directory, or those with a label) against their expect");
    suite->add_option("selector", suite_selector,
                      "A directory of specs, a spec file, or a label such as quick or nightly");
    suite->add_option("--store", flags.store, "Where the suite directory goes")->capture_default_str();
    const auto add_count = [&](const char* name, int& count, const char* description, int most) {
        suite->add_option(name, count, description)->check(CLI::Range(1, most))->capture_default_str();
    };
    int suite_repeat = 1;
    add_count("--repeat", suite_repeat, "Run each scenario N times with different seeds and report its detection rate",
              1000);
    int suite_jobs = 1;
    add_count("--jobs", suite_jobs, "Run up to N scenarios side by side (scenarios labelled alone by themselves)", 64);
    std::string suite_shard = "1/1";
    suite->add_option("--shard", suite_shard, "K/N: run only the K-th of N slices of the scenarios (docs/ci.md)")
        ->capture_default_str();
    bool suite_stops_on_decided = true;
    suite->add_flag("--stop-on-decided,!--no-stop-on-decided", suite_stops_on_decided,
                    "Stop a scenario that expects invalid once its expectation is met (default: on in suite)");

    CompareOptions compare_options;
    auto* compare = app.add_subcommand("compare", "Run a grid of spec variations, the same seeds in every cell");
    compare->add_option("spec", compare_options.spec_path, "Spec file")->required()->check(CLI::ExistingFile);
    compare->add_option("--vary", compare_options.varies, "FIELD=V1,V2,... (repeatable): any spec field")->required();
    compare->add_option("--runs", compare_options.runs, "Runs per cell")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    compare->add_option("--seed", compare_options.seed, "First seed; run i of every cell uses seed + i")
        ->check(seed_number());
    compare->add_option("--time-limit", compare_options.time_limit, "Seconds of workload per run")
        ->check(positive_at_most(spec_bounds::kMaxTimeLimitS, "seconds", "1 day"));
    compare->add_option("--store", flags.store, "Where the compare directory goes")->capture_default_str();

    CertifyOptions certify_options;
    auto* certify = app.add_subcommand(
        "certify", "Run the fault battery of a topology against your lock client and print its report card");
    certify->add_option("--client-cmd", certify_options.client_cmd,
                        "Your lock client (through sh -c), speaking docs/protocol.md (without it: the family's "
                        "built-in recipe)");
    certify->add_option("--recipe", certify_options.recipe,
                        "Without --client-cmd: certify this built-in recipe instead of the family's");
    certify->add_option("--topology", certify_options.topology, "The topology whose family's battery runs")
        ->required();
    certify->add_option("--ttl-ms", certify_options.ttl_ms, "Lease asked for by every acquire (default: the family's)")
        ->check(positive_at_most(static_cast<double>(spec_bounds::kMaxDurationMs), "ms", "1 hour"));
    certify->add_option("--workers", certify_options.workers, "Number of lock clients per cell")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    certify->add_option("--repeat", certify_options.repeat, "Runs per cell (a cell is met when every run meets it)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    certify->add_option("--evidence", certify_options.evidence,
                        "How often each cell's danger must come about for the cell to count (default: 3); a cell "
                        "that saw it fewer times is not exercised (exit 2)")
        ->check(CLI::Range(1, 1000));
    certify->add_option("--time-limit", certify_options.time_limit, "Seconds of workload per cell (default: each cell's)")
        ->check(positive_at_most(spec_bounds::kMaxTimeLimitS, "seconds", "1 day"));
    certify->add_option("--cells", certify_options.cells, "Comma-separated cells to run (default: the whole battery)");
    certify->add_option("--store", flags.store, "Where the certify directory goes")->capture_default_str();

    ShrinkOptions shrink_options;
    auto* shrink = app.add_subcommand(
        "shrink", "From a failing run, search the smallest spec (explicit fault schedule) that still fails the same way");
    shrink->add_option("run_dir", shrink_options.run_dir, "The failing run's directory")->required();
    shrink->add_option("--budget", shrink_options.budget, "Stop the search after this long (90s, 10m, 1h)")
        ->capture_default_str();
    shrink->add_option("--runs", shrink_options.runs, "Runs per candidate (kept when all but one fail the same way)")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    shrink->add_option("--store", flags.store, "Where STORE/<scenario>/shrink-<id>/ goes")->capture_default_str();

    std::string check_path;
    auto* check = app.add_subcommand("check", "Rerun every checker on a run directory or a history.jsonl, offline");
    check->add_option("path", check_path, "Run directory or history.jsonl")->required()->check(CLI::ExistingPath);

    std::string export_path;
    bool export_edn = false;
    std::optional<std::string> export_output;
    auto* export_cmd = app.add_subcommand("export", "Write a stored history in another tool's format");
    export_cmd->add_flag("--edn", export_edn, "Jepsen's history.edn")->required();
    export_cmd->add_option("path", export_path, "Run directory or history.jsonl")->required()->check(CLI::ExistingPath);
    export_cmd->add_option("-o,--output", export_output,
                           "Output file (default: history.edn beside the history; - for stdout)");

    auto* index = app.add_subcommand("index",
                                     "Write STORE/index.html: every stored run, newest first, with its "
                                     "verdict and a link to its report");
    index->add_option("--store", flags.store, "The store to list")->capture_default_str();

    auto* list = app.add_subcommand("list", "List recipes, topologies, nemeses and scenarios");
    auto* clean = app.add_subcommand("clean", "Remove what runs that died left behind (never touches a live run)");
    auto* images = app.add_subcommand(
        "images", "Build (when missing) and list lockcheck's Docker images (runtime docker; lockcheck itself)");
    bool rebuild_images = false;
    images->add_flag("--rebuild", rebuild_images, "Build the image of lockcheck again, from this binary");

    std::string run_id;  // only to name the process in `ps`; the init request carries what the worker needs
    int process = 0;
    auto* worker = app.add_subcommand("worker", "Internal: one lock client speaking JSON lines on stdin/stdout");
    worker->group("");  // hidden from --help
    worker->add_option("--run-id", run_id);
    worker->add_option("--process", process);
    bool fork_server = false;  // fork ready workers on request (host/fork_server.hpp) instead of serving one
    worker->add_flag("--fork-server", fork_server);

    try {
        require_known_subcommand(app, argc, argv);
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError&) {
        return report_failure(std::current_exception());
    }

    return exit_code_of([&] {
        if (*worker) {
            if (fork_server) {
                const ProcessTitle title(argv);  // found once, in the server, for every worker
                if (const auto server_exit = serve_forks(STDIN_FILENO)) return *server_exit;
                // A forked worker: named as one in `ps`, not as the server it was forked from.
                title.set({argv[0], "worker", "(forked)", "--run-id", run_id});
            }
            return run_worker(std::cin, std::cout);
        }
        if (*list) return list_command();
        if (*index) return index_command(flags.store);
        if (*clean) return clean_command();
        if (*images) return images_command(std::filesystem::read_symlink("/proc/self/exe"), rebuild_images);
        if (*check) return check_command(check_path);
        if (*export_cmd)
            return export_edn_command(
                export_path, export_output ? std::optional<std::filesystem::path>(*export_output) : std::nullopt);
        if (*run || *suite || *compare || *certify || *shrink) {
            InterruptWatcher interrupts;
            RunOptions options;
            options.store = flags.store;
            options.self_exe = std::filesystem::read_symlink("/proc/self/exe");
            options.interrupted = interrupts.interrupted();
            // certify: as in a suite, a cell expecting invalid would stop once decided (no cell of the
            // battery does: each states what a correct client meets, judged on its whole short run).
            options.stop_on_decided = *suite ? suite_stops_on_decided : *certify || (*run && run_stops_on_decided);
            if (*suite)
                return suite_command(suite_selector, options, {suite_repeat, parse_shard(suite_shard), suite_jobs});
            if (*compare) return compare_command(compare_options, options);
            if (*certify) return certify_command(certify_options, options);
            if (*shrink) return shrink_command(shrink_options, options);
            ResolvedRun resolved = resolve_run(flags);
            options.expectation_not_applicable = resolved.expectation_not_applicable;
            return run_spec(std::move(resolved.spec), options).exit_code;
        }
        return exit_code::kBadInput;
    });
}

}  // namespace lockcheck
