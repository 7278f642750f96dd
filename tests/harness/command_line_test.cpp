// The command line as a user meets it (issue 15, item 14): what a mistyped
// command line says, `run NAME` from any directory, refusals that leave no
// run directory behind, and `list` that wraps instead of cutting. The run
// cases stop at validation: no server starts.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "clusters/runtimes/node_runtime_registry.hpp"
#include "harness/command_line.hpp"
#include "run/exit_codes.hpp"
#include "run/run_flags.hpp"
#include "run/run_preflight.hpp"
#include "spec/scenario_catalog.hpp"
#include "nemesis/fault_registry.hpp"
#include "recipes/recipe_registry.hpp"
#include "spec/run_plan.hpp"
#include "tests/support/cli_runner.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;

namespace {

using lockcheck::testing::run_cli;

/// `spec` planned (spec/run_plan.hpp), with a recipe that runs on its
/// topology when the spec's own does not.
RunPlan planned(Spec spec) {
    const auto runs_on = [&](const RecipeDescriptor& recipe) {
        return std::find(recipe.topologies.begin(), recipe.topologies.end(), spec.topology) != recipe.topologies.end();
    };
    if (!runs_on(*find_recipe(spec.recipe)))
        for (const auto& recipe : recipe_descriptors())
            if (runs_on(recipe)) {
                spec.recipe = recipe.name;
                break;
            }
    return plan_run(std::move(spec));
}

/// A store path that does not exist yet, removed at the end of the test.
class FreshStore : public ::testing::Test {
protected:
    void SetUp() override {
        store_ = fs::temp_directory_path() / ("lockcheck-cli-" + std::to_string(std::random_device{}()));
        fs::remove_all(store_);
    }
    void TearDown() override { fs::remove_all(store_); }
    fs::path store_;
};

std::string collapsed(const std::string& text) {
    std::string out;
    for (char c : text) {
        const bool blank = c == ' ' || c == '\n';
        if (blank && (out.empty() || out.back() == ' ')) continue;
        out += blank ? ' ' : c;
    }
    return out;
}

/// Runs `body` with the current directory set to `dir`, then goes back.
template <typename Body>
void from_directory(const fs::path& dir, Body body) {
    const auto back = fs::current_path();
    fs::current_path(dir);
    body();
    fs::current_path(back);
}

TEST(CommandLine, AnUnknownSubcommandIsNamedWithTheValidOnes) {
    const auto ran = run_cli({"frobnicate"});
    EXPECT_EQ(ran.exit_code, exit_code::kBadInput);
    EXPECT_NE(ran.err.find("unknown subcommand 'frobnicate'"), std::string::npos) << ran.err;
    EXPECT_NE(ran.err.find("run, suite, compare, certify, shrink, check, export, index, list, clean"), std::string::npos) << ran.err;
    EXPECT_EQ(ran.err.find("worker"), std::string::npos) << "the internal subcommand stays hidden: " << ran.err;
    EXPECT_EQ(ran.err.find("A subcommand is required"), std::string::npos) << ran.err;
    EXPECT_EQ(std::count(ran.err.begin(), ran.err.end(), '\n'), 1) << ran.err;
}

TEST(CommandLine, ATimeLimitOutOfBoundsSaysTheBoundInWords) {
    for (const char* bad : {"0", "-3", "86401", "soon"}) {
        const auto ran = run_cli({"run", "--time-limit", bad});
        EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << bad;
        EXPECT_NE(ran.err.find("must be more than 0 and at most 86400 seconds (1 day)"), std::string::npos) << ran.err;
        EXPECT_EQ(ran.err.find("e+308"), std::string::npos) << ran.err;
        EXPECT_EQ(ran.err.find("e-308"), std::string::npos) << ran.err;
    }
    const auto ttl = run_cli({"run", "--ttl-ms", "0"});
    EXPECT_EQ(ttl.exit_code, exit_code::kBadInput);
    EXPECT_NE(ttl.err.find("at most 3600000 ms (1 hour)"), std::string::npos) << ttl.err;
}

TEST(CommandLine, CertifyRefusesBadFlagsInOneLineAndMakesNothing) {
    const fs::path store_ = fs::temp_directory_path() / ("lockcheck-cli-certify-" + std::to_string(::getpid()));
    fs::remove_all(store_);
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"certify", "--topology", "oracle", "--client-cmd", "x"}, "--topology 'oracle' has no battery; the topologies are redis-single"},
        {{"certify", "--topology", "redis-single", "--client-cmd", "x", "--recipe", "redlock"}, "not both"},
        {{"certify", "--topology", "redis-single", "--recipe", "redlock", "--cells", "no-faults"},
         "'redis-single' cannot run recipe 'redlock'"},
        {{"certify", "--topology", "redis-single", "--client-cmd", "x", "--cells", "no-faults,nope"},
         "'nope' is no cell of this topology; its cells are no-faults, pause-holder"},
        {{"certify", "--topology", "etcd", "--client-cmd", "x", "--cells", "failover"}, "'failover' is no cell"},
        {{"certify", "--topology", "redis-single", "--client-cmd", "x", "--workers", "0"}, "--workers"},
        {{"certify", "--topology", "redis-single", "--client-cmd", "x", "--time-limit", "0"}, "at most 86400 seconds"},
    };
    for (auto [args, message] : cases) {
        args.push_back("--store");
        args.push_back(store_.string());
        const auto ran = run_cli(args);
        EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << message;
        EXPECT_NE(ran.err.find(message), std::string::npos) << ran.err;
        EXPECT_EQ(std::count(ran.err.begin(), ran.err.end(), '\n'), 1) << ran.err;
        EXPECT_FALSE(fs::exists(store_)) << message;
    }
}

TEST_F(FreshStore, ABadShardIsRefusedInOneLineAndMakesNothing) {
    for (const char* bad : {"0/2", "3/2", "2", "1/0", "x/y"}) {
        const auto ran = run_cli({"suite", "quick", "--shard", bad, "--store", store_.string()});
        EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << bad;
        EXPECT_NE(ran.err.find("--shard must be K/N"), std::string::npos) << ran.err;
        EXPECT_NE(ran.err.find(std::string("'") + bad + "'"), std::string::npos) << ran.err;
        EXPECT_EQ(std::count(ran.err.begin(), ran.err.end(), '\n'), 1) << ran.err;
        EXPECT_FALSE(fs::exists(store_)) << "no suite directory for a refused shard";
    }
}

TEST_F(FreshStore, AnUnknownNemesisListsTheFaultsAndMakesNothing) {
    const auto ran = run_cli({"run", "--nemesis", "pause-holdr", "--store", store_.string()});
    EXPECT_EQ(ran.exit_code, exit_code::kBadInput);
    EXPECT_NE(ran.err.find("names no known fault ('pause-holdr')"), std::string::npos) << ran.err;
    for (const auto& fault : fault_descriptors()) EXPECT_NE(ran.err.find(fault.name), std::string::npos) << fault.name;
    EXPECT_FALSE(fs::exists(store_));
}

// Regression: the refusal came after the run directory and store/latest
// existed (and after the servers started).
TEST_F(FreshStore, AFaultThatNeedsNamespacesIsRefusedBeforeTheRunDirectoryExists) {
    for (const auto& [scenario, fault] :
         {std::pair{"redis-quick-no-faults", "packet-loss"}, std::pair{"etcd-leader-partition", "partition"},
          std::pair{"mysql-replica-promotion", "failover"}}) {
        const auto ran =
            run_cli({"run", scenario, "--network", "loopback", "--nemesis", fault, "--store", store_.string()});
        EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << ran.err;
        EXPECT_NE(ran.err.find(std::string("fault '") + fault + "' needs network namespaces"), std::string::npos)
            << ran.err;
        EXPECT_FALSE(fs::exists(store_)) << "neither a run directory nor store/latest";
    }
}

// In loopback mode the Redis and ZooKeeper servers are cut off from each other
// through the fault proxy's peer links; etcd's and MariaDB's replication
// peers talk directly, and the refusal says why.
TEST(CommandLine, LoopbackPartitionsAreForTheTopologiesWhosePeersTalkThroughTheProxy) {
    const auto spec_with = [](const char* topology, const char* fault) {
        return planned(spec_from_json({{"topology", topology}, {"network", "loopback"}, {"nemesis", {fault}}}, "t"));
    };
    for (const char* topology : {"redis-single", "redis-independent", "redis-sentinel", "zookeeper", "mysql-single"})
        for (const char* fault : {"partition", "failover"})
            EXPECT_EQ(preflight_network(spec_with(topology, fault)), NetworkMode::Loopback) << topology << fault;
    EXPECT_EQ(preflight_network(spec_with("mysql-replicated", "partition")), NetworkMode::Loopback);
    try {
        preflight_network(spec_with("etcd", "partition"));
        ADD_FAILURE() << "etcd was not refused";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("the servers of topology etcd cannot be cut off from each other: "),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("one URL per member for all the others"), std::string::npos) << e.what();
    }
    try {
        preflight_network(spec_with("mysql-replicated", "failover"));
        ADD_FAILURE() << "the failover of mysql-replicated was not refused in loopback mode";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("fault 'failover' needs network namespaces on topology mysql-replicated, "
                                             "which this run was told not to use (network loopback): "),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("cuts the clients off"), std::string::npos) << e.what();
    }
}

TEST_F(FreshStore, AnUnknownRuntimeIsRefusedInOneLineAndMakesNothing) {
    const auto ran = run_cli({"run", "redis-quick-no-faults", "--runtime", "vm", "--store", store_.string()});
    EXPECT_EQ(ran.exit_code, exit_code::kBadInput);
    EXPECT_NE(ran.err.find("field 'runtime' names no known runtime ('vm'); the runtimes are netns, docker, ssh"),
              std::string::npos)
        << ran.err;
    EXPECT_FALSE(fs::exists(store_));
}

TEST(CommandLine, RuntimeDockerRefusesAnotherNetworkAndPowerLossBeforeAnythingIsMade) {
    Spec spec;
    spec.runtime = "docker";
    spec.network = "loopback";
    try {
        preflight_network(planned(spec));
        ADD_FAILURE() << "runtime docker took network loopback";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("runtime docker brings its own network"), std::string::npos) << e.what();
    }
    spec.network = "auto";
    spec.nemesis = {"power-loss"};
    try {
        preflight_network(planned(spec));
        ADD_FAILURE() << "runtime docker took power-loss";
    } catch (const SpecError& e) {
        const std::string expected = can_use_namespaces() ? "fault 'power-loss' cannot run with runtime docker: "
                                                          : "runtime docker, which needs root";
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
}

TEST(CommandLine, RuntimeSshRefusesPowerLossAndTooFewHostsBeforeAnythingIsMade) {
    const auto hosts = fs::temp_directory_path() / ("lockcheck-hosts-" + std::to_string(::getpid()) + ".json");
    std::ofstream(hosts) << R"([{"address": "10.0.0.1", "user": "root", "key": "/k"}])";
    Spec spec;
    spec.runtime = "ssh";
    spec.hosts = hosts.string();
    const auto refusal = [&] {
        try {
            preflight_network(planned(spec));
            return std::string();
        } catch (const SpecError& e) {
            return std::string(e.what());
        }
    };
    spec.topology = "redis-single";
    EXPECT_EQ(refusal(), "");
    spec.nemesis = {"clock-skew"};  // the offset file is rewritten on the host (NodeRuntime::rewrite_in_place)
    EXPECT_EQ(refusal(), "");
    spec.nemesis = {"power-loss"};
    EXPECT_NE(refusal().find("fault 'power-loss' cannot run with runtime ssh: "), std::string::npos) << refusal();
    spec.nemesis = {};
    spec.topology = "zookeeper";
    EXPECT_EQ(refusal(), "field 'hosts': hosts file " + hosts.string() +
                             " lists 1 host(s), but topology zookeeper has 3 nodes (node i runs on host i)");
    std::ofstream(hosts) << R"([{"address": "10.0.0.1", "user": "root"}])";
    EXPECT_EQ(refusal(), "field 'hosts': hosts file " + hosts.string() + ": host 1: field 'key' is missing");
    fs::remove(hosts);
}

// Regression: `run NAME` needed the spec file's path relative to a checkout.
TEST(CommandLine, RunFindsAScenarioByNameFromAnyDirectory) {
    from_directory(fs::temp_directory_path(), [] {
        RunFlags flags;
        flags.spec = "redis-quick-no-faults";
        EXPECT_EQ(resolve_run(flags).spec.name, "redis-quick-no-faults");
        flags.spec = "redis-quick-no-faults.json";
        EXPECT_EQ(resolve_run(flags).spec.name, "redis-quick-no-faults");
        flags.spec = "no-such-scenario";
        try {
            resolve_run(flags);
            ADD_FAILURE() << "an unknown name was accepted";
        } catch (const SpecError& e) {
            EXPECT_NE(std::string(e.what()).find("no spec file and no scenario named 'no-such-scenario' (searched"),
                      std::string::npos)
                << e.what();
        }
    });
    const auto dirs = scenario_search_dirs();
    ASSERT_GE(dirs.size(), 3u);
    EXPECT_EQ(dirs[1], fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "scenarios")
        << "beside the binary's directory: build/lockcheck finds its checkout's scenarios";
}

// Regression: `--nemesis none` on a scenario with an expect printed "NOT met".
TEST(CommandLine, ReplacingTheScenariosFaultsSetsItsExpectationAside) {
    RunFlags flags;
    flags.spec = "redis-holder-pause";
    ASSERT_TRUE(resolve_run(flags).spec.expect.has_value()) << "the fixture scenario expects something";
    EXPECT_FALSE(resolve_run(flags).expectation_not_applicable);

    flags.nemesis = "none";
    const auto none = resolve_run(flags);
    EXPECT_FALSE(none.spec.expect.has_value());
    ASSERT_TRUE(none.expectation_not_applicable);
    EXPECT_NE(none.expectation_not_applicable->find("stated for nemesis pause-holder"), std::string::npos)
        << *none.expectation_not_applicable;

    flags.nemesis = "pause-holder";  // the scenario's own faults: the expectation stands
    EXPECT_TRUE(resolve_run(flags).spec.expect.has_value());
    EXPECT_FALSE(resolve_run(flags).expectation_not_applicable);

    flags.spec = "redis-quick-no-faults";  // nothing expected: nothing to set aside
    flags.nemesis = "none";
    EXPECT_FALSE(resolve_run(flags).expectation_not_applicable);
}

// Regression: descriptions were cut mid-phrase with "...".
TEST(CommandLine, ListWrapsEveryDescriptionWhole) {
    const auto ran = run_cli({"list"});
    ASSERT_EQ(ran.exit_code, exit_code::kValid) << ran.err;
    const std::string flat = collapsed(ran.out);
    for (const auto& entry : load_scenarios(default_scenarios_dir())) {
        ASSERT_TRUE(entry.spec) << entry.path;
        EXPECT_NE(flat.find(collapsed(first_sentence(entry.spec->description))), std::string::npos) << entry.path;
    }
    for (const auto& fault : fault_descriptors()) EXPECT_NE(flat.find(collapsed(fault.description)), std::string::npos);
    EXPECT_NE(flat.find("runtimes:"), std::string::npos);
    for (const auto& runtime : node_runtime_descriptors())
        EXPECT_NE(flat.find(collapsed("  " + runtime.name + " " + runtime.description)), std::string::npos)
            << runtime.name;
}

}  // namespace
