// An interrupted `lockcheck certify` never exits 0 (issue 41, defect 1): a
// SIGINT, SIGTERM or SIGHUP in the middle of a cell's run leaves that cell
// unjudged (its partial run proves nothing) and the battery incomplete, in
// the exit code, certify.json and junit.xml. Against redis-single, on the
// no-faults and pause-holder cells of 8 s each.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <thread>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

/// Waits (up to 60 s) until the output says the first cell started, then
/// 3 s more: past the servers' start, within the cell's 8 s of workload.
bool wait_for_first_cell(const fs::path& store) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        if (read_file(store / "output.txt").find("== [1/2] no-faults") != std::string::npos) {
            std::this_thread::sleep_for(std::chrono::seconds(3));
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

void expect_interrupt_is_no_success(const std::string& test, int signal) {
    const auto store = fresh_store(test);
    auto child = start_lockcheck(store, {"certify", "--topology", "redis-single", "--cells", "no-faults,pause-holder",
                                         "--time-limit", "8"});
    ASSERT_TRUE(wait_for_first_cell(store)) << read_file(store / "output.txt");
    child->send_signal(signal);
    ASSERT_TRUE(child->wait_for_exit(std::chrono::seconds(60))) << "certify did not stop";
    const std::string output = read_file(store / "output.txt");
    EXPECT_NE(child->exit_status().value_or(0), 0) << output;
    fs::path dir;
    for (const auto& entry : fs::directory_iterator(store))
        if (entry.path().filename().string().rfind("certify-", 0) == 0) dir = entry.path();
    ASSERT_TRUE(fs::exists(dir / "certify.json")) << output;
    const auto card = nlohmann::json::parse(read_file(dir / "certify.json"));
    EXPECT_NE(card["exit_code"], 0) << card.dump(2);
    EXPECT_EQ(card["interrupted"], true) << card.dump(2);
    for (const auto& cell : card["cells"]) EXPECT_EQ(cell["met"], false) << cell.dump(2);
    const std::string junit = read_file(dir / "junit.xml");
    EXPECT_NE(junit.find("skipped=\"2\""), std::string::npos) << junit;
}

}  // namespace

TEST(CertifyInterrupt, SigintMidCellIsNoSuccess) { expect_interrupt_is_no_success("certify-sigint", SIGINT); }
TEST(CertifyInterrupt, SigtermMidCellIsNoSuccess) { expect_interrupt_is_no_success("certify-sigterm", SIGTERM); }
