// `lockcheck index` (issue 15, item 17): every run of a store, at any depth,
// newest first, with its verdict and a link to its report; text escaped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "commands/index_command.hpp"
#include "spec/spec.hpp"
#include "reports/store_index.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;

namespace {

class StoreIndex : public ::testing::Test {
protected:
    void SetUp() override {
        store_ = fs::temp_directory_path() / ("lockcheck-index-" + std::to_string(std::random_device{}()));
        fs::create_directories(store_);
    }
    void TearDown() override { fs::remove_all(store_); }

    /// A run directory with spec.json and history.jsonl, and `results` as results.json unless null.
    fs::path add_run(const fs::path& relative, const std::string& name, const nlohmann::json& results,
                     bool report = true) {
        const auto dir = store_ / relative;
        fs::create_directories(dir / "nodes" / "n1");
        std::ofstream(dir / "spec.json") << nlohmann::json{{"name", name}}.dump();
        std::ofstream(dir / "history.jsonl") << "";
        if (!results.is_null()) std::ofstream(dir / "results.json") << results.dump();
        if (report) std::ofstream(dir / "report.html") << "<html></html>";
        return dir;
    }

    fs::path store_;
};

TEST_F(StoreIndex, ListsEveryRunAtAnyDepthNewestFirst) {
    add_run("redis-holder-pause/20261101T100000Z-aaaaaa", "redis-holder-pause",
            {{"valid", false},
             {"run", {{"seconds", 20.5}, {"client", "lockcheck worker (redis-set-nx-px)"}}},
             {"expectation", {{"matched", true}, {"mismatches", nlohmann::json::array()}}}});
    add_run("suites/20261102T090000Z-bbbbbb/redis-quick-no-faults/20261102T090001Z-cccccc", "redis-quick-no-faults",
            {{"valid", true}, {"expectation", {{"applies", false}, {"reason", "--nemesis none"}}}});
    add_run("redis-no-faults/20261103T080000Z-dddddd", "redis-no-faults", nullptr, false);  // never finished
    fs::create_directory_symlink("redis-no-faults/20261103T080000Z-dddddd", store_ / "latest");

    const auto runs = collect_runs(store_);
    ASSERT_EQ(runs.size(), 3u) << "store/latest is not a second copy of a run";
    EXPECT_EQ(runs[0].scenario, "redis-no-faults");
    EXPECT_EQ(runs[0].verdict, "");
    EXPECT_FALSE(runs[0].has_report);
    EXPECT_EQ(runs[1].path, "suites/20261102T090000Z-bbbbbb/redis-quick-no-faults/20261102T090001Z-cccccc");
    EXPECT_EQ(runs[1].verdict, "valid");
    EXPECT_EQ(runs[1].expectation, "does not apply");
    EXPECT_EQ(runs[2].started, "2026-11-01 10:00:00 UTC");
    EXPECT_EQ(runs[2].verdict, "invalid");
    EXPECT_EQ(runs[2].expectation, "met");
    EXPECT_EQ(runs[2].client, "lockcheck worker (redis-set-nx-px)");
    ASSERT_TRUE(runs[2].seconds);
    EXPECT_DOUBLE_EQ(*runs[2].seconds, 20.5);

    ::testing::internal::CaptureStdout();
    EXPECT_EQ(index_command(store_), 0);
    EXPECT_NE(::testing::internal::GetCapturedStdout().find("3 runs, newest first"), std::string::npos);
    std::ifstream in(store_ / "index.html");
    const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto first = html.find("redis-no-faults/20261103T080000Z-dddddd");
    const auto last = html.find("href=\"redis-holder-pause/20261101T100000Z-aaaaaa/report.html\"");
    ASSERT_NE(first, std::string::npos);
    ASSERT_NE(last, std::string::npos);
    EXPECT_LT(first, last) << "newest first";
    EXPECT_EQ(html.find("<script"), std::string::npos) << "no script: the page is data";
}

TEST_F(StoreIndex, EscapesEveryTextAndEncodesLinks) {
    IndexedRun run;
    run.path = "odd name/2026#1";
    run.scenario = "<script>alert(1)</script>";
    run.client = "\"quoted\" & <b>bold</b>";
    run.verdict = "invalid\" onmouseover=\"x";
    run.has_report = true;
    const std::string html = render_store_index({run}, "st<o>re");
    EXPECT_EQ(html.find("<script>alert"), std::string::npos);
    EXPECT_EQ(html.find("<b>bold"), std::string::npos);
    EXPECT_EQ(html.find("\" onmouseover=\""), std::string::npos);
    EXPECT_NE(html.find("href=\"odd%20name/2026%231/report.html\""), std::string::npos) << html;
    EXPECT_NE(html.find("1 run, newest first"), std::string::npos);
}

TEST_F(StoreIndex, AStoreThatIsNoDirectoryIsBadInput) { EXPECT_THROW(index_command(store_ / "missing"), SpecError); }

}  // namespace
