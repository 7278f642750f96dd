#include "tests/support/integration_helpers.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "host/system_command.hpp"

namespace fs = std::filesystem;

namespace lockcheck::testing {

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

namespace {

/// The stores the running test made.
std::vector<fs::path>& stores_of_this_test() {
    static std::vector<fs::path> stores;
    return stores;
}

/// Removes a test's run stores when it passed; keeps them, and says where,
/// when it failed, for diagnosis.
class RemoveStoresOfPassedTests : public ::testing::EmptyTestEventListener {
    void OnTestEnd(const ::testing::TestInfo& test) override {
        for (const auto& store : stores_of_this_test()) {
            if (test.result()->Passed()) {
                std::error_code ignored;
                fs::remove_all(store, ignored);
            } else {
                std::cerr << "kept the run store of the failed test: " << store.string() << "\n";
            }
        }
        stores_of_this_test().clear();
    }
};

const bool kStoreCleanerInstalled = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new RemoveStoresOfPassedTests);
    return true;
}();

}  // namespace

fs::path fresh_store(const std::string& name) {
    auto store = fs::temp_directory_path() / ("lockcheck-it-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(store);
    fs::create_directories(store);
    stores_of_this_test().push_back(store);
    return store;
}

std::unique_ptr<ChildProcess> start_lockcheck(const fs::path& store, std::vector<std::string> args,
                                              std::vector<std::string> env_prefix) {
    std::vector<std::string> argv = env_prefix;
    argv.push_back(LOCKCHECK_BINARY);
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--store");
    argv.push_back(store.string());
    return std::make_unique<ChildProcess>(ChildSpec{argv, std::nullopt, store / "output.txt", false});
}

void kill_controller_only(ChildProcess& controller) {
    controller.send_signal(SIGKILL);
    EXPECT_TRUE(controller.wait_for_exit(std::chrono::seconds(10))) << "the controller survived SIGKILL";
}

RunOutcome latest_run(const fs::path& store) {
    RunOutcome out;
    const auto latest = store / "latest";
    if (fs::exists(latest)) {
        out.run_dir = fs::canonical(latest);
        const auto name = out.run_dir.filename().string();
        out.run_id = name.substr(name.rfind('-') + 1);
        if (fs::exists(out.run_dir / "results.json"))
            out.results = nlohmann::json::parse(read_file(out.run_dir / "results.json"));
    }
    return out;
}

bool wait_for_first_record(const fs::path& store) {
    for (int i = 0; i < 600; ++i) {
        std::error_code ec;
        if (fs::exists(store / "latest") && fs::file_size(latest_run(store).run_dir / "history.jsonl", ec) > 0 && !ec)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

RunOutcome finish(ChildProcess& child, const fs::path& store) {
    EXPECT_TRUE(child.wait_for_exit(std::chrono::seconds(150))) << "lockcheck did not finish";
    RunOutcome out = latest_run(store);
    out.exit_code = child.exit_status().value_or(-1);
    out.output = read_file(store / "output.txt");
    return out;
}

RunOutcome run_lockcheck(const std::string& test, std::vector<std::string> args) {
    const auto store = fresh_store(test);
    auto child = start_lockcheck(store, std::move(args));
    return finish(*child, store);
}

RunOutcome run_until_decided(const std::string& test, const std::string& spec, int limit_s,
                             std::vector<std::string> extra) {
    std::vector<std::string> args{"run", spec};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--time-limit", std::to_string(limit_s), "--stop-on-decided"});
    return run_lockcheck(test, std::move(args));
}

RunOutcome run_lockcheck_with_relative_store(const std::string& test, std::vector<std::string> args) {
    const auto store = fresh_store(test);
    std::vector<std::string> argv{"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", store.string(), LOCKCHECK_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--store", "."});
    ChildProcess child(ChildSpec{argv, std::nullopt, store / "output.txt", false});
    return finish(child, store);
}

std::string run_clean(const fs::path& dir) {
    const auto out = dir / "clean.txt";
    ChildProcess clean(ChildSpec{{LOCKCHECK_BINARY, "clean"}, std::nullopt, out, false});
    EXPECT_TRUE(clean.wait_for_exit(std::chrono::seconds(60))) << "clean did not finish";
    EXPECT_EQ(clean.exit_status(), 0) << read_file(out);
    return read_file(out);
}

std::vector<std::string> processes_of_run(const std::string& run_id) {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const auto pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmdline = read_file(entry.path() / "cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        std::error_code ec;
        const auto cwd = fs::read_symlink(entry.path() / "cwd", ec).string();
        if (cmdline.find(run_id) != std::string::npos || cwd.find(run_id) != std::string::npos)
            found.push_back(pid + ": " + cmdline);
    }
    return found;
}

void expect_nothing_left(const RunOutcome& run) {
    ASSERT_FALSE(run.run_id.empty());
    const std::string prefix = "lc-" + run.run_id;
    EXPECT_EQ(lockcheck::run_command({"ip", "netns", "list"}).output.find(prefix), std::string::npos)
        << "a network namespace of the run is left";
    EXPECT_EQ(lockcheck::run_command({"ip", "-o", "link", "show"}).output.find(prefix), std::string::npos)
        << "a link of the run is left";
    EXPECT_TRUE(processes_of_run(run.run_id).empty())
        << "a process of the run is left: " << processes_of_run(run.run_id)[0];
}

const nlohmann::json& stats(const RunOutcome& run, const char* checker) {
    return run.results.at("checkers").at(checker).at("stats");  // at(): a missing key fails the test, never UB
}

std::set<std::string> violation_kinds(const RunOutcome& run, const char* checker) {
    std::set<std::string> kinds;
    const auto& checkers = run.results.at("checkers");
    if (!checkers.contains(checker)) return kinds;
    for (const auto& v : checkers[checker].value("violations", nlohmann::json::array()))
        kinds.insert(v.value("kind", "(no kind)"));
    return kinds;
}

void expect_lease_expired_overlaps_only(const RunOutcome& run) {
    const auto& violations = run.results.at("checkers").at("mutual-exclusion").at("violations");
    bool expired_named = false;
    for (const auto& v : violations) {
        const auto kind = v.value("kind", "(no kind)");
        EXPECT_TRUE(kind == "overlap-lease-expired" || kind == "overlap-lease-uncertain") << v.dump();
        expired_named =
            expired_named || (kind == "overlap-lease-expired" && v.value("ops", nlohmann::json::array()).size() >= 3);
    }
    EXPECT_TRUE(expired_named) << "no overlap-lease-expired naming the ops that prove it: " << violations.dump();
}

std::vector<nlohmann::json> nemesis_ops(const RunOutcome& run, const std::string& f, const std::string& type) {
    std::vector<nlohmann::json> out;
    std::istringstream lines(read_file(run.run_dir / "history.jsonl"));
    for (std::string line; std::getline(lines, line);) {
        auto op = nlohmann::json::parse(line);
        if (op["process"] == "nemesis" && op["f"] == f && op["type"] == type) out.push_back(op);
    }
    return out;
}

std::vector<nlohmann::json> violations_of(const RunOutcome& run, const char* checker, const std::string& kind) {
    std::vector<nlohmann::json> out;
    for (const auto& v : run.results["checkers"][checker]["violations"])
        if (v["kind"] == kind) out.push_back(v);
    return out;
}

std::string scenario(const char* name) { return std::string(LOCKCHECK_SOURCE_DIR) + "/scenarios/" + name + ".json"; }

}  // namespace lockcheck::testing
