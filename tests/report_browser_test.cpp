// Renders a generated report.html in headless Chromium (Debian's `chromium`)
// and checks the page's script ran without errors and drew the verdict and
// the violation markers. The page's own window.onerror hook writes script
// errors into the DOM (#script-errors li.script-error), which --dump-dom shows.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checkers/run_checkers.hpp"
#include "reports/html_report.hpp"
#include "tests/report_fixtures.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;

namespace {

const char* kChromium = "/usr/bin/chromium";

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The DOM after the page's scripts ran, from `chromium --headless --dump-dom`.
std::string rendered_dom(const fs::path& page, const fs::path& work) {
    const auto profile = work / "profile";
    const auto out = work / "dom.html";
    const std::string command = std::string("timeout 90 ") + kChromium +
                                " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                                " --disable-background-networking --disable-component-update --disable-sync"
                                " --user-data-dir=" + profile.string() + " --dump-dom file://" + page.string() +
                                " > " + out.string() + " 2> " + (work / "chromium.log").string();
    const int status = std::system(command.c_str());
    EXPECT_EQ(status, 0) << command << "\n" << read_file(work / "chromium.log");
    return read_file(out);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

class ReportInBrowser : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(fs::exists(kChromium)) << "Debian's chromium is not installed (scripts/setup.sh installs it)";
        work_ = fs::temp_directory_path() / ("lockcheck-browser-" + std::to_string(::getpid()));
        fs::remove_all(work_);
        fs::create_directories(work_);
    }
    void TearDown() override { fs::remove_all(work_); }
    fs::path work_;
};

}  // namespace

TEST_F(ReportInBrowser, LoadsWithoutScriptErrorsAndShowsVerdictAndViolationMarkers) {
    const History h = lockcheck::testing::paused_holder_history();
    const auto report = run_checkers(h);
    const nlohmann::json spec = {{"name", "paused"}, {"recipe", "redis-set-nx-px"}, {"topology", "redis-single"},
                                 {"workers", 2}, {"ttl_ms", 1000}, {"fencing", false}};
    write_report_html(work_ / "report.html", {h, report, nlohmann::json::object(), spec});
    const auto dom = rendered_dom(work_ / "report.html", work_);

    EXPECT_NE(dom.find("data-rendered=\"true\""), std::string::npos) << "the script did not finish";
    EXPECT_EQ(dom.find("class=\"script-error\""), std::string::npos) << dom.substr(0, 3000);
    EXPECT_NE(dom.find("INVALID: two clients held the same lock at the same time"), std::string::npos);
    EXPECT_NE(dom.find("Lock 'lock': worker 1 acquired it"), std::string::npos);
    // Elements the script creates: one lane background per worker, hold bars, violation marker and list entry.
    EXPECT_EQ(count(dom, "class=\"lane-bg\""), 2u);
    EXPECT_GE(count(dom, "class=\"hold"), 2u);
    EXPECT_GE(count(dom, "class=\"violation-marker"), 1u);
    EXPECT_GE(count(dom, "class=\"violation-span"), 2u);  // one per involved worker's lane
    EXPECT_NE(dom.find("<li id=\"v0\" class=\"violation"), std::string::npos);
    EXPECT_GE(count(dom, "class=\"fault-band\""), 1u);
    EXPECT_NE(dom.find("<circle"), std::string::npos);  // the latency plot
}

TEST_F(ReportInBrowser, ALongHistoryRendersCappedWithoutErrors) {
    const History h = lockcheck::testing::long_valid_history(17'000);  // ~100k ops
    const auto report = run_checkers(h);
    write_report_html(work_ / "report.html", {h, report, nlohmann::json::object(), nullptr});
    const auto dom = rendered_dom(work_ / "report.html", work_);
    EXPECT_NE(dom.find("data-rendered=\"true\""), std::string::npos);
    EXPECT_EQ(dom.find("class=\"script-error\""), std::string::npos);
    EXPECT_NE(dom.find("Drawn with caps"), std::string::npos);
    EXPECT_NE(dom.find("data-verdict=\"valid\""), std::string::npos);
    EXPECT_LE(count(dom, "class=\"hold"), ReportLimits{}.max_holds);
}
