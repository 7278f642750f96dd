// `lockcheck certify` without servers, as a careless user drives it (issue
// 41): a battery that cannot run all it was asked never exits 0; a lease
// longer than the family's makes the faults' cells need more time, not
// refusals (defect 2); skipped cells are skipped in junit.xml, never passes
// (defect 7); and junit.xml stays well-formed UTF-8 when the store path is
// not (defect 6). Nothing runs: the interrupt is requested before the
// battery starts, so every cell is prepared and none is run.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <stop_token>

#include "commands/certify/certify_battery.hpp"
#include "commands/certify/certify_card.hpp"
#include "commands/certify/certify_command.hpp"
#include "core/utf8_text.hpp"
#include "reports/junit_xml.hpp"
#include "reports/results_json.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using lockcheck::testing::ScratchDir;

namespace {

std::string read_all(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The certify directory certify_command made in `store`.
std::filesystem::path certify_dir(const std::filesystem::path& store) {
    for (const auto& entry : std::filesystem::directory_iterator(store))
        if (entry.path().filename().string().rfind("certify-", 0) == 0) return entry.path();
    return {};
}

/// certify_command with the interrupt already requested: every cell's spec
/// is built and checked, none runs.
int certify_interrupted_before_start(const CertifyOptions& certify, const std::filesystem::path& store) {
    std::stop_source interrupt;
    interrupt.request_stop();
    RunOptions options;
    options.store = store;
    options.interrupted = interrupt.get_token();
    return certify_command(certify, options);
}

CertifyOptions redis_single() {
    CertifyOptions certify;
    certify.topology = "redis-single";
    return certify;
}

}  // namespace

TEST(CertifyAdversarial, AnInterruptedBatteryNeverExitsZero) {
    ScratchDir scratch("certify-interrupted");
    const int code = certify_interrupted_before_start(redis_single(), scratch.path());
    EXPECT_NE(code, 0);
    const auto card = read_json_or_null(certify_dir(scratch.path()) / "certify.json");
    ASSERT_TRUE(card.is_object());
    EXPECT_EQ(card["interrupted"], true);
    EXPECT_EQ(card["exit_code"], code);
}

TEST(CertifyAdversarial, AnIncompleteCellKeepsTheExitCodeFromZero) {
    const CertifyCell cell = cells_for("redis-single").front();
    CellResult met = skipped_cell(cell, "");
    met.status = CellStatus::Met;
    EXPECT_EQ(certify_exit_code({met, skipped_cell(cell, "not on this topology")}), 0);
    EXPECT_EQ(certify_exit_code({met, incomplete_cell(cell, "interrupted: its run was cut short, not judged")}), 2);
}

TEST(CertifyAdversarial, ALongTtlScalesTheCellsInsteadOfRefusingThem) {
    ScratchDir scratch("certify-long-ttl");
    CertifyOptions certify = redis_single();
    certify.ttl_ms = 4000;  // faults of 1.5 to 2.5 x 4 s: past the default 10 s operation timeout
    certify.time_limit = 2;
    certify_interrupted_before_start(certify, scratch.path());
    const auto card = read_json_or_null(certify_dir(scratch.path()) / "certify.json");
    ASSERT_TRUE(card.is_object());
    ASSERT_GT(card["cells"].size(), 5u);
    for (const auto& cell : card["cells"]) {
        const std::string why = cell.value("why", "");
        EXPECT_EQ(why.find("refused"), std::string::npos) << cell.dump();
        EXPECT_NE(why.find("interrupted"), std::string::npos) << cell.dump();
    }
    const std::vector<CertifyCell> cells = cells_for("redis-single");
    const CertifyCell pause = *std::find_if(cells.begin(), cells.end(),
                                            [](const CertifyCell& c) { return c.name == "pause-holder"; });
    const auto scaled = ttl_scaled_fields(pause, 4000, 1000);
    EXPECT_GT(scaled.value("op_timeout_ms", 0), 10'000);  // above the longest fault, 2.5 x 4 s
    EXPECT_EQ(scaled.value("time_limit_s", 0.0), pause.time_limit_s * 4);
    EXPECT_TRUE(ttl_scaled_fields(pause, 1000, 1000).empty());
}

TEST(CertifyAdversarial, ASkippedCellIsSkippedInJunit) {
    const CertifyCell cell = cells_for("redis-sentinel").front();
    const std::string xml =
        junit_xml({card_junit({skipped_cell(cell, "refused: no proxy between the clients and the primary")},
                              "redis-sentinel")});
    EXPECT_NE(xml.find("skipped=\"1\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("<skipped message=\"refused: no proxy between the clients and the primary\"/>"),
              std::string::npos)
        << xml;
    EXPECT_EQ(xml.find("skipped=\"0\""), std::string::npos) << xml;
}

TEST(CertifyAdversarial, JunitIsUtf8WhenTheStorePathIsNot) {
    ScratchDir scratch("certify-bad-path");
    const auto store = scratch.path() / "bad\xff\xfe";
    certify_interrupted_before_start(redis_single(), store);
    const std::string xml = read_all(certify_dir(store) / "junit.xml");
    ASSERT_FALSE(xml.empty());
    EXPECT_TRUE(is_valid_utf8(xml)) << xml;
    JUnitCase with_path{"c", "k", 0, std::nullopt, "", "report: /tmp/bad\xff/report.html"};
    const std::string one = junit_xml({JUnitSuite{"s\xc3", 0, {with_path}}});
    EXPECT_TRUE(is_valid_utf8(one)) << one;
    EXPECT_NE(one.find("/tmp/bad\xef\xbf\xbd/report.html"), std::string::npos) << one;  // U+FFFD in its place
}

TEST(CertifyAdversarial, RefusesARecipeThatIsNotALock) {
    ScratchDir scratch("certify-not-a-lock");
    for (const char* recipe : {"snowflake-ids", "redis-incr-ids"}) {
        const auto ran = lockcheck::testing::run_cli({"certify", "--topology", "redis-single", "--recipe", recipe,
                                                      "--cells", "client-clock-skew", "--store",
                                                      scratch.path().string()});
        EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << ran.out << ran.err;
        EXPECT_EQ(std::count(ran.err.begin(), ran.err.end(), '\n'), 1) << ran.err;
        EXPECT_NE(ran.err.find(std::string("--recipe '") + recipe + "' is not a lock"), std::string::npos) << ran.err;
        EXPECT_EQ(ran.out, "") << "nothing runs";
    }
}
