// The lockcheck command line: run, check, list, and the internal worker.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "clusters/topology_registry.hpp"
#include "harness/check_command.hpp"
#include "harness/clean_command.hpp"
#include "harness/compare_command.hpp"
#include "harness/exit_codes.hpp"
#include "harness/export_command.hpp"
#include "harness/interrupts.hpp"
#include "harness/replay_command.hpp"
#include "harness/run.hpp"
#include "harness/scenario_catalog.hpp"
#include "harness/suite_command.hpp"
#include "nemesis/fault_registry.hpp"
#include "workloads/recipe_registry.hpp"
#include "workloads/worker_main.hpp"

namespace {

using namespace lockcheck;

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    for (char c : text) {
        if (c == separator) {
            if (!part.empty()) parts.push_back(part);
            part.clear();
        } else {
            part.push_back(c);
        }
    }
    if (!part.empty()) parts.push_back(part);
    return parts;
}

/// Flags of `lockcheck run` that override the spec.
struct RunFlags {
    std::string spec_path;
    std::optional<double> time_limit;
    std::optional<std::uint64_t> seed;
    std::optional<int> workers;
    std::optional<std::int64_t> ttl_ms;
    std::optional<std::string> nemesis;
    bool fencing = false;
    std::optional<std::string> network;
    std::optional<std::string> name;
    std::optional<std::string> client_cmd;
    std::string store = "store";
    std::optional<std::string> replay;  ///< a run directory whose spec.json (and seed) to run again
};

Spec resolve_spec(const RunFlags& f) {
    Spec spec = f.replay ? replay_spec(*f.replay) : f.spec_path.empty() ? Spec{} : read_spec(f.spec_path);
    if (f.name) spec.name = *f.name;
    if (f.time_limit) spec.time_limit_s = *f.time_limit;
    if (f.seed) spec.seed = *f.seed;
    if (f.workers) spec.workers = *f.workers;
    if (f.ttl_ms) spec.ttl_ms = *f.ttl_ms;
    if (f.nemesis) spec.nemesis = *f.nemesis == "none" ? std::vector<std::string>{} : split(*f.nemesis, ',');
    if (f.fencing) spec.fencing = true;
    if (f.network) spec.network = *f.network;
    if (f.client_cmd) spec.client_cmd = *f.client_cmd;
    return spec;
}

/// One line per option under its recipe or fault: name, default (when it has
/// one), meaning.
void print_options(const std::vector<OptionDescriptor>& options) {
    for (const auto& option : options) {
        const std::string shown_default =
            option.default_value.is_null() ? "" : "default " + option.default_value.dump() + ": ";
        std::printf("      %-20s %s%s\n", option.name.c_str(), shown_default.c_str(), option.description.c_str());
    }
}

int list_command() {
    std::printf("recipes:\n");
    for (const auto& r : recipe_descriptors()) {
        std::printf("  %-22s %s\n", r.name.c_str(), r.description.c_str());
        print_options(r.options);
    }
    std::printf("topologies:\n");
    for (const auto& t : topology_descriptors()) std::printf("  %-22s %s\n", t.name.c_str(), t.description.c_str());
    std::printf("nemeses:\n");
    for (const auto& f : fault_descriptors()) {
        std::printf("  %-22s %s\n", f.name.c_str(), f.description.c_str());
        print_options(f.options);
    }
    std::printf("%s", scenario_list_text(default_scenarios_dir()).c_str());
    return exit_code::kValid;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"lockcheck: proves or disproves the safety of distributed locks on real servers"};
    app.require_subcommand(1);

    RunFlags flags;
    auto* run = app.add_subcommand("run", "Run a scenario (a spec file, flags, or the default) and check it");
    run->add_option("spec", flags.spec_path, "Spec file, e.g. scenarios/redis-holder-pause.json")->check(CLI::ExistingFile);
    run->add_option("--time-limit", flags.time_limit, "Seconds of workload")->check(CLI::PositiveNumber);
    run->add_option("--seed", flags.seed, "Seed of the fault schedule and workload (printed and stored)");
    run->add_option("--workers", flags.workers, "Number of lock clients, each its own process")->check(CLI::Range(1, 256));
    run->add_option("--ttl-ms", flags.ttl_ms, "Lease asked for by every acquire")->check(CLI::PositiveNumber);
    run->add_option("--nemesis", flags.nemesis, "Comma-separated faults (`lockcheck list` shows them) or none");
    run->add_flag("--fencing", flags.fencing, "Reject stale fencing tokens at the protected resource");
    run->add_option("--network", flags.network, "auto, netns (needs root) or loopback");
    run->add_option("--name", flags.name, "Scenario name (the run directory's parent)");
    run->add_option("--client-cmd", flags.client_cmd,
                    "Run this command as every worker: your own lock client speaking docs/protocol.md");
    run->add_option("--store", flags.store, "Where run directories go")->capture_default_str();
    run->add_option("--replay", flags.replay, "Run again a stored run directory's spec.json, same seed and fault schedule")
        ->check(CLI::ExistingDirectory)->excludes("spec");

    std::string suite_selector;
    auto* suite = app.add_subcommand("suite", "Run scenarios (all, a directory, or those with a label) against their expect");
    suite->add_option("selector", suite_selector, "A directory of specs, a spec file, or a label such as quick or nightly");
    suite->add_option("--store", flags.store, "Where the suite directory goes")->capture_default_str();

    CompareOptions compare_options;
    auto* compare = app.add_subcommand("compare", "Run a grid of spec variations, the same seeds in every cell");
    compare->add_option("spec", compare_options.spec_path, "Spec file")->required()->check(CLI::ExistingFile);
    compare->add_option("--vary", compare_options.varies, "FIELD=V1,V2,... (repeatable): any spec field")->required();
    compare->add_option("--runs", compare_options.runs, "Runs per cell")->check(CLI::Range(1, 1000))->capture_default_str();
    compare->add_option("--seed", compare_options.seed, "First seed; run i of every cell uses seed + i");
    compare->add_option("--time-limit", compare_options.time_limit, "Seconds of workload per run")->check(CLI::PositiveNumber);
    compare->add_option("--store", flags.store, "Where the compare directory goes")->capture_default_str();

    std::string check_path;
    auto* check = app.add_subcommand("check", "Rerun every checker on a run directory or a history.jsonl, offline");
    check->add_option("path", check_path, "Run directory or history.jsonl")->required()->check(CLI::ExistingPath);

    std::string export_path;
    bool export_edn = false;
    std::optional<std::string> export_output;
    auto* export_cmd = app.add_subcommand("export", "Write a stored history in another tool's format");
    export_cmd->add_flag("--edn", export_edn, "Jepsen's history.edn")->required();
    export_cmd->add_option("path", export_path, "Run directory or history.jsonl")->required()->check(CLI::ExistingPath);
    export_cmd->add_option("-o,--output", export_output, "Output file (default: history.edn beside the history; - for stdout)");

    auto* list = app.add_subcommand("list", "List recipes, topologies, nemeses and scenarios");
    auto* clean = app.add_subcommand("clean", "Remove what runs that died left behind (never touches a live run)");

    std::string run_id;  // only to name the process in `ps`; the init request carries what the worker needs
    int process = 0;
    auto* worker = app.add_subcommand("worker", "Internal: one lock client speaking JSON lines on stdin/stdout");
    worker->group("");  // hidden from --help
    worker->add_option("--run-id", run_id);
    worker->add_option("--process", process);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError&) {
        return report_failure(std::current_exception());
    }

    return exit_code_of([&] {
        if (*worker) return run_worker(std::cin, std::cout);
        if (*list) return list_command();
        if (*clean) return clean_command();
        if (*check) return check_command(check_path);
        if (*export_cmd)
            return export_edn_command(export_path, export_output ? std::optional<std::filesystem::path>(*export_output)
                                                                 : std::nullopt);
        if (*run || *suite || *compare) {
            InterruptWatcher interrupts;
            RunOptions options;
            options.store = flags.store;
            options.self_exe = std::filesystem::read_symlink("/proc/self/exe");
            options.interrupted = interrupts.interrupted();
            if (*suite) return suite_command(suite_selector, options);
            if (*compare) return compare_command(compare_options, options);
            return run_spec(resolve_spec(flags), options).exit_code;
        }
        return exit_code::kBadInput;
    });
}
