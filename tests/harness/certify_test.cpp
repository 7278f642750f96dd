// `lockcheck certify` without servers: the battery table (every family has
// its cells, each with a reason and an expectation the spec accepts), the
// judging of constructed runs, blame in words, the exit code rules, and the
// report card as text, certify.json, junit.xml and certify.html.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <unistd.h>

#include "checkers/danger_counts.hpp"
#include "checkers/liveness.hpp"
#include "checkers/overlap_blame.hpp"
#include "commands/certify/certify_battery.hpp"
#include "commands/certify/certify_card.hpp"
#include "commands/certify/certify_evidence.hpp"
#include "reports/certify_html.hpp"
#include "reports/junit_xml.hpp"
#include "tests/support/history_builder.hpp"
#include "reports/results_json.hpp"

using namespace lockcheck;

namespace {

const CertifyCell& cell_named(const std::string& topology, const std::string& name) {
    static std::deque<CertifyCell> kept;  // references stay valid as it grows
    for (const auto& c : cells_for(topology))
        if (c.name == name) return kept.emplace_back(c);
    throw std::runtime_error("no cell " + name + " on " + topology);
}

CellRun run_with(std::string verdict, std::vector<FoundViolation> violations, std::string unknown_reason = "") {
    CellRun run{std::move(verdict), std::move(violations), std::move(unknown_reason), "/store/run", 10, 0};
    run.report_written = true;
    return run;
}

CellResult result(CellStatus status) {
    CellResult r;
    r.cell = "c";
    r.status = status;
    return r;
}

}  // namespace

TEST(CertifyBattery, EveryFamilyHasTheCellsOfItsFaults) {
    for (const auto& family : certify_families()) {
        std::set<std::string> names;
        for (const auto& c : cells_for(family.topology)) {
            EXPECT_TRUE(names.insert(c.name).second) << family.topology << " has cell " << c.name << " twice";
        }
        for (const char* always :
             {"no-faults", "pause-holder", "pause-client", "slow-reply", "delay", "client-partition",
              "client-clock-skew", "kill-restart-immediate", "kill-restart-delayed"})
            EXPECT_TRUE(names.count(always)) << family.topology << " lacks cell " << always;
        EXPECT_EQ(names.count("clock-skew"), 1u) << family.topology;
        EXPECT_EQ(names.count("failover"),
                  family.topology == "redis-sentinel" || family.topology == "mysql-replicated" ? 1u : 0u)
            << family.topology;
        EXPECT_EQ(names.count("power-loss"),
                  family.topology == "redis-sentinel" || family.topology == "mysql-replicated" ? 0u : 1u)
            << family.topology;
        const bool single = family.topology == "redis-single" || family.topology == "mysql-single";
        EXPECT_EQ(names.count("partition"), single ? 0u : 1u) << family.topology;
    }
}

TEST(CertifyBattery, EveryCellHasAReasonAndAnExpectationOfKnownKinds) {
    const std::set<std::string> kinds{kOverlapWithinLease,  kLateGrant,          kExpiredGrant,    kRenewAfterLoss,
                                      kOverlapLeaseExpired, kGrantWithoutOwnKey, kRenewAfterExpiry, kStuckLock};
    for (const auto& c : certify_battery()) {
        EXPECT_GT(c.reason.size(), 40u) << c.name << ": a reason in words";
        EXPECT_FALSE(c.families.empty()) << c.name;
        EXPECT_GT(c.time_limit_s, 0) << c.name;
        for (const auto& kind : c.expect.lacks) EXPECT_TRUE(kinds.count(kind)) << c.name << ": " << kind;
        if (c.expect.valid) {
            EXPECT_EQ(*c.expect.valid, "valid") << c.name;
        }
        // A cell that blames the servers for within-lease overlaps allows them.
        const bool lacks_within = std::count(c.expect.lacks.begin(), c.expect.lacks.end(), kOverlapWithinLease) > 0;
        EXPECT_NE(lacks_within, c.within_lease_is_server || c.expect.valid.has_value()) << c.name;
        // Every cell builds a spec the parser accepts (the options of the faults of this build).
        for (const auto& topology : c.families) {
            nlohmann::json j = certify_family(topology).base;
            j.update(cell_settings(c, certify_family(topology)));
            j["topology"] = topology;
            j["recipe"] = certify_family(topology).recipe;
            resolve_ttl_ranges(j);
            EXPECT_NO_THROW(spec_from_json(j, c.name)) << c.name << " on " << topology;
        }
    }
}

TEST(CertifyBattery, PauseHolderAllowsOnlyWhatFencingFixes) {
    const auto& c = cell_named("redis-single", "pause-holder");
    EXPECT_EQ(expectation_words(c.expect),
              "no overlap-within-lease, late-grant, expired-grant, renew-after-loss, grant-without-own-key, "
              "renew-after-expiry");
    EXPECT_EQ(expectation_words(cell_named("redis-single", "no-faults").expect), "valid");
    // An immediate restart without persistence on one node may lose the lock: the server's.
    EXPECT_TRUE(cell_named("redis-single", "kill-restart-immediate").within_lease_is_server);
    EXPECT_FALSE(cell_named("redis-single", "kill-restart-delayed").within_lease_is_server);
    EXPECT_FALSE(cell_named("etcd", "kill-restart-immediate").within_lease_is_server);
}

TEST(CertifyBattery, UnknownTopologyAndCellsAreRefusedNamingTheKnownOnes) {
    try {
        cells_for("oracle");
        FAIL() << "no throw";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("redis-single"), std::string::npos) << e.what();
    }
    const auto cells = cells_for("redis-single");
    try {
        select_cells(cells, "no-faults,failover");
        FAIL() << "no throw";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("'failover' is no cell"), std::string::npos) << e.what();
    }
    EXPECT_THROW(select_cells(cells, ","), SpecError);
    const auto two = select_cells(cells, "pause-holder,no-faults");
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].name, "no-faults");  // battery order
}

TEST(CertifyCard, BlameInWords) {
    const auto& pause = cell_named("redis-single", "pause-holder");
    const auto& restart = cell_named("redis-single", "kill-restart-immediate");
    EXPECT_EQ(blame_words(kLateGrant, pause), "your client");
    EXPECT_EQ(blame_words(kRenewAfterLoss, pause), "your client");
    EXPECT_EQ(blame_words(kExpiredGrant, pause), "your client");
    EXPECT_EQ(blame_words(kOverlapLeaseExpired, pause), "inherent to lease locks: add fencing");
    EXPECT_EQ(blame_words(kOverlapLeaseUncertain, pause), "undecided");
    EXPECT_EQ(blame_words(kGrantWithoutOwnKey, pause), "your client");
    EXPECT_EQ(blame_words(kRenewAfterExpiry, pause), "your client");
    EXPECT_EQ(blame_words(kOverlapWithinLease, pause), "your client");
    EXPECT_EQ(blame_words(kOverlapWithinLease, restart), "server configuration");
    EXPECT_EQ(blame_words("lost-update", cell_named("redis-single", "no-faults")), "your client");
    EXPECT_EQ(blame_words(kStuckLock, cell_named("redis-single", "kill-client")), "your client");
}

TEST(CertifyCard, JudgesRunsAgainstTheCell) {
    const auto& pause = cell_named("redis-single", "pause-holder");
    // Only what fencing fixes: met, and the blame says so; the overlap is shown
    // rather than the lost update it caused, which has no blame class.
    auto r = judge_cell(pause, {run_with("invalid", {{"lost-update", "x"}, {kOverlapLeaseExpired, "A stalled"}})});
    EXPECT_EQ(r.status, CellStatus::Met);
    EXPECT_EQ(r.first_violation, "overlap-lease-expired: A stalled");
    EXPECT_EQ(r.blame, "inherent to lease locks: add fencing");
    // Without an overlap, the first finding, undecided.
    r = judge_cell(pause, {run_with("invalid", {{"lost-update", "x"}})});
    EXPECT_EQ(r.first_violation, "lost-update: x");
    EXPECT_EQ(r.blame, "undecided");
    // A forbidden kind: not met, shown first though it came later, blamed on the client.
    r = judge_cell(pause, {run_with("invalid", {{kOverlapLeaseExpired, "A stalled"},
                                                {kOverlapWithinLease, "both. Whose fault: the lock service"}})});
    EXPECT_EQ(r.status, CellStatus::NotMet);
    EXPECT_EQ(r.first_violation, "overlap-within-lease: both.");
    EXPECT_EQ(r.blame, "your client");
    EXPECT_EQ(r.why, "found overlap-within-lease");
    EXPECT_EQ(r.report, "/store/run/report.html");
    // A finding of a valid run is shown without blame.
    r = judge_cell(pause, {run_with("valid", {{"stuck-lock", "held by nobody"}})});
    EXPECT_EQ(r.status, CellStatus::Met);
    EXPECT_EQ(r.first_violation, "stuck-lock: held by nobody");
    EXPECT_EQ(r.blame, "");
    // UNKNOWN: could not decide, with the reason.
    r = judge_cell(pause, {run_with("unknown", {}, "no acquire was granted")});
    EXPECT_EQ(r.status, CellStatus::Undecided);
    EXPECT_EQ(r.why, "no acquire was granted");
    // A failed run.
    r = judge_cell(pause, {run_with("error", {})});
    EXPECT_EQ(r.status, CellStatus::Error);
    // No faults expects valid.
    r = judge_cell(cell_named("redis-single", "no-faults"), {run_with("invalid", {{kOverlapLeaseExpired, "held"}})});
    EXPECT_EQ(r.status, CellStatus::NotMet);
    EXPECT_EQ(r.why, "expected valid, got invalid");
    // Repeats: one run not met makes the cell not met, and that run is shown.
    auto bad = run_with("invalid", {{kLateGrant, "late"}});
    bad.run_dir = "/store/bad";
    r = judge_cell(pause, {run_with("valid", {}), bad, run_with("unknown", {})});
    EXPECT_EQ(r.status, CellStatus::NotMet);
    EXPECT_EQ(r.report, "/store/bad/report.html");
    EXPECT_EQ(r.runs, 3);
    EXPECT_DOUBLE_EQ(r.seconds, 30);
    // A run that failed before writing its report links none.
    auto failed = run_with("error", {});
    failed.report_written = false;
    r = judge_cell(pause, {failed});
    EXPECT_EQ(r.report, "");
}

TEST(CertifyCard, LinksAReportOnlyWhereTheRunWroteOne) {
    const auto dir = std::filesystem::temp_directory_path() / ("certify-report-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    EXPECT_FALSE(cell_run_from_results(std::nullopt, "error", dir.string(), 1, 3).report_written);
    std::ofstream(dir / "report.html") << "<html></html>";
    EXPECT_TRUE(cell_run_from_results(std::nullopt, "invalid", dir.string(), 1, 1).report_written);
    std::filesystem::remove_all(dir);
}

TEST(CertifyCard, UndecidedIsNotAPass) {
    const auto& pause = cell_named("redis-single", "pause-holder");
    // Every violation an overlap nobody could be blamed for: could not decide (exit 2), not met.
    auto r = judge_cell(pause, {run_with("invalid", {{kOverlapLeaseUncertain, "a"}, {kOverlapLeaseUncertain, "b"}})});
    EXPECT_EQ(r.status, CellStatus::Undecided);
    EXPECT_NE(r.why.find("overlap-lease-uncertain"), std::string::npos) << r.why;
    EXPECT_EQ(certify_exit_code({r}), 2);
    // Near misses: one decided overlap beside them (the servers' record decided it, or the history did)
    // makes the run's violations not only undecided ones.
    r = judge_cell(pause, {run_with("invalid", {{kOverlapLeaseUncertain, "a"}, {kOverlapLeaseExpired, "b"}})});
    EXPECT_EQ(r.status, CellStatus::Met);
    r = judge_cell(pause, {run_with("invalid", {{kOverlapLeaseExpired, "decided by the servers' order"}})});
    EXPECT_EQ(r.status, CellStatus::Met);
    // A run the card judges only-undecided among met runs makes the cell undecided.
    r = judge_cell(pause, {run_with("valid", {}), run_with("invalid", {{kOverlapLeaseUncertain, "a"}})});
    EXPECT_EQ(r.status, CellStatus::Undecided);
}

TEST(CertifyCard, ReadsViolationsOfCountingCheckersFromResults) {
    const nlohmann::json results = {
        {"valid", false},
        {"unknown_reason", "why"},
        {"checkers",
         {{"mutual-exclusion",
           {{"counts_toward_verdict", true}, {"violations", {{{"kind", "late-grant"}, {"description", "d"}}}}}},
          {"advisory", {{"counts_toward_verdict", false}, {"violations", {{{"kind", "x"}, {"description", "y"}}}}}}}}};
    const auto run = cell_run_from_results(results_from_json(results), "invalid", "/r", 3, 1);
    ASSERT_EQ(run.violations.size(), 1u);
    EXPECT_EQ(run.violations[0].kind, "late-grant");
    EXPECT_EQ(run.unknown_reason, "why");
    EXPECT_TRUE(cell_run_from_results(std::nullopt, "error", "", 0, 255).violations.empty());
}

TEST(CertifyCard, ExitCodeRules) {
    using S = CellStatus;
    EXPECT_EQ(certify_exit_code({result(S::Met), result(S::Skipped)}), 0);
    EXPECT_EQ(certify_exit_code({result(S::Met), result(S::NotMet), result(S::Undecided)}), 1);
    EXPECT_EQ(certify_exit_code({result(S::Met), result(S::Error)}), 1);
    EXPECT_EQ(certify_exit_code({result(S::Met), result(S::Undecided)}), 2);
    EXPECT_EQ(certify_exit_code({result(S::Skipped)}), 2);  // nothing ran: nothing certified
    EXPECT_EQ(certify_exit_code({}), 2);
    EXPECT_EQ(certify_exit_code({result(S::Met), result(S::NotExercised)}), 2);
    EXPECT_EQ(certify_exit_code({result(S::NotExercised), result(S::NotMet)}), 1);
}

TEST(CertifyBattery, EveryCellNamesItsDangerAndTheCountsThatMeasureIt) {
    for (const auto& c : certify_battery()) {
        EXPECT_GT(c.evidence.reason.size(), 40u) << c.name << ": the danger's reason in words";
        EXPECT_NO_THROW(certify_shape(c.shape)) << c.name;
        EXPECT_GE(c.evidence.max_runs, 1) << c.name;
        if (c.name == "no-faults") {
            EXPECT_TRUE(c.evidence.counts.empty()) << "no-faults needs no danger";
            EXPECT_EQ(evidence_needed(c, 5), 0);
            continue;
        }
        EXPECT_FALSE(c.evidence.danger.empty()) << c.name;
        EXPECT_EQ(c.evidence.needed, kDefaultEvidence) << c.name;
        EXPECT_EQ(evidence_needed(c, 5), 5) << c.name << ": --evidence overrides";
        for (const auto& count : c.evidence.counts)
            EXPECT_NE(find_danger_kind(count), nullptr) << c.name << ": " << count;
    }
    for (const auto& family : certify_families()) {
        std::set<std::string> names;
        for (const auto& c : cells_for(family.topology)) names.insert(c.name);
        EXPECT_TRUE(names.count("pause-node")) << family.topology << ": a server stall for every family";
        EXPECT_TRUE(names.count("pause-holder-sparse")) << family.topology;
    }
    EXPECT_EQ(cell_named("redis-single", "pause-node").evidence.danger,
              "a holder released after its lease ran out during the stall, while another owner held the lock");
    EXPECT_EQ(cell_named("redis-single", "pause-holder-sparse").shape, "sparse");
    EXPECT_EQ(certify_shape("sparse").settings["workers"], 2);
}

TEST(CertifyEvidence, ALeaseDangerIsNotApplicableToALockWithoutALease) {
    const auto without_lease = nlohmann::json{
        {"exercised", {{"acquire_attempts", 40}, {"acquires_asking_lease", 0}, {"dangers", nlohmann::json::object()}}}};
    const auto with_lease = nlohmann::json{
        {"exercised", {{"acquire_attempts", 40}, {"acquires_asking_lease", 40}, {"dangers", nlohmann::json::object()}}}};
    const auto& pause = cell_named("mysql-single", "pause-holder");
    const auto why = danger_impossible_without_lease(pause, without_lease);
    EXPECT_NE(why.find("the lock has no lease (none of its 40 acquires asked for one)"), std::string::npos) << why;
    EXPECT_EQ(danger_impossible_without_lease(pause, with_lease), "");
    // A server fault while the lock is held, or a client killed holding it, needs no lease.
    EXPECT_EQ(danger_impossible_without_lease(cell_named("mysql-single", "power-loss"), without_lease), "");
    EXPECT_EQ(danger_impossible_without_lease(cell_named("mysql-single", "kill-client"), without_lease), "");
    // No acquire, or results that do not say: nothing is known about the lease.
    EXPECT_EQ(danger_impossible_without_lease(pause, nlohmann::json{{"exercised", {{"acquire_attempts", 0}}}}), "");
    EXPECT_EQ(danger_impossible_without_lease(pause, nlohmann::json{{"exercised", {{"acquire_attempts", 4}}}}), "");
    EXPECT_EQ(danger_impossible_without_lease(cell_named("mysql-single", "no-faults"), without_lease), "");
}

TEST(CertifyEvidence, ACellThatSawItsDangerTooRarelyIsNotExercisedAndRunsAgainWithinItsBudget) {
    const auto& pause = cell_named("redis-single", "pause-holder");
    nlohmann::json results = {{"exercised", {{"dangers", {{"holders_stopped_past_lease_acted", 2}}}}}};
    auto run = run_with("valid", {});
    run.danger_seen = danger_seen(pause, results);
    EXPECT_EQ(run.danger_seen, 2);
    EXPECT_EQ(danger_seen(pause, nullptr), 0);
    EXPECT_EQ(danger_seen(cell_named("redis-single", "pause-client"), results), 2) << "the sum of its counts";

    EXPECT_TRUE(wants_another_run(pause, {}, 1, 3, 0));
    EXPECT_TRUE(wants_another_run(pause, {run}, 1, 3, 2)) << "short of the danger, within the budget";
    EXPECT_FALSE(wants_another_run(pause, {run}, 1, 2, 2)) << "seen as often as needed";
    EXPECT_FALSE(wants_another_run(pause, {run, run, run}, 1, 9, 6)) << "the budget is spent";
    EXPECT_FALSE(wants_another_run(pause, {run_with("invalid", {{kLateGrant, "late"}})}, 1, 3, 0))
        << "a run that broke the cell needs no more";
    EXPECT_TRUE(wants_another_run(pause, {run}, 2, 0, 5)) << "--repeat runs at least";

    auto r = judge_cell(pause, {run});
    apply_evidence(r, pause, 3, 2);
    EXPECT_EQ(r.status, CellStatus::NotExercised);
    EXPECT_NE(r.why.find("came about 2 of the 3 times needed in 1 run"), std::string::npos) << r.why;
    const auto text = card_text({r}, "redis-single", 1);
    EXPECT_NE(text.find("not exercised"), std::string::npos) << text;
    EXPECT_NE(text.find("danger: seen 2 of 3: " + pause.evidence.danger), std::string::npos) << text;
    const auto json = card_json({r}, {});
    EXPECT_EQ(json["exit_code"], 2);
    EXPECT_EQ(json["cells"][0]["evidence"]["seen"], 2);
    EXPECT_EQ(json["cells"][0]["evidence"]["needed"], 3);
    EXPECT_EQ(json["cells"][0]["evidence"]["danger"], pause.evidence.danger);
    EXPECT_NE(render_certify_html(json).find("seen 2 of 3"), std::string::npos);
    const auto junit = card_junit({r}, "redis-single");
    EXPECT_EQ(junit.cases[0].failure_type, "not-exercised");
    EXPECT_NE(junit.cases[0].details.find("danger: seen 2 of 3"), std::string::npos);

    auto met = judge_cell(pause, {run});
    apply_evidence(met, pause, 2, 2);
    EXPECT_EQ(met.status, CellStatus::Met) << "seen as often as needed";
    auto broken = judge_cell(pause, {run_with("invalid", {{kLateGrant, "late"}})});
    apply_evidence(broken, pause, 3, 0);
    EXPECT_EQ(broken.status, CellStatus::NotMet) << "a violation stands whatever the evidence";
    auto none = judge_cell(cell_named("redis-single", "no-faults"), {run_with("valid", {})});
    apply_evidence(none, cell_named("redis-single", "no-faults"), 0, 0);
    EXPECT_EQ(none.status, CellStatus::Met);
    EXPECT_NE(card_text({none}, "redis-single", 1).find("danger: none needed"), std::string::npos);
}

TEST(CertifyCard, TextJsonJunitAndHtmlCarryEveryCell) {
    const auto& pause = cell_named("redis-single", "pause-holder");
    std::vector<CellResult> cells{
        judge_cell(pause, {run_with("invalid", {{kOverlapWithinLease, "two <holders>"}})}),
        skipped_cell(cell_named("redis-single", "pause-client"), "not available in this build (no fault pause-client)"),
        judge_cell(cell_named("redis-single", "no-faults"), {run_with("unknown", {}, "nothing granted")})};
    const auto text = card_text(cells, "redis-single", 61);
    EXPECT_NE(text.find("pause-holder"), std::string::npos) << text;
    EXPECT_NE(text.find("NOT MET"), std::string::npos) << text;
    EXPECT_NE(text.find("blame:  your client"), std::string::npos) << text;
    EXPECT_NE(text.find("not available in this build"), std::string::npos) << text;
    EXPECT_NE(
        text.find("3 cells: 0 met, 1 not met, 1 could not decide, 0 not exercised, 1 skipped, 0 failed to run | 61s"),
        std::string::npos)
        << text;

    const auto json = card_json(cells, {{"topology", "redis-single"}, {"client_cmd", "python3 x.py"}});
    EXPECT_EQ(json["exit_code"], 1);
    ASSERT_EQ(json["cells"].size(), 3u);
    EXPECT_EQ(json["cells"][0]["blame"], "your client");
    EXPECT_EQ(json["cells"][0]["met"], false);
    EXPECT_EQ(json["cells"][1]["status"], "skipped");
    EXPECT_EQ(json["cells"][2]["status"], "could not decide");

    const auto junit = card_junit(cells, "redis-single");
    ASSERT_EQ(junit.cases.size(), 3u);
    EXPECT_EQ(junit.cases[0].failure_type, "expectation");
    EXPECT_FALSE(junit.cases[1].failure.has_value());
    EXPECT_EQ(junit.cases[2].failure_type, "unknown");
    const auto xml = junit_xml({junit});
    EXPECT_NE(xml.find("tests=\"3\""), std::string::npos) << xml;

    const auto html = render_certify_html(json);
    EXPECT_NE(html.find("two &lt;holders&gt;"), std::string::npos);  // escaped
    EXPECT_EQ(html.find("two <holders>"), std::string::npos);
    EXPECT_NE(html.find("file:///store/run/report.html"), std::string::npos);
}

TEST(CertifyBattery, DocsRenderTheSameTable) {
    std::ifstream in(std::string(LOCKCHECK_SOURCE_DIR) + "/docs/certify.md");
    const std::string docs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(docs.empty());
    for (const auto& c : certify_battery()) {
        EXPECT_NE(docs.find("| " + c.name + " |"), std::string::npos) << c.name;
        EXPECT_NE(docs.find(c.reason), std::string::npos) << c.name << ": docs/certify.md lacks its reason";
    }
    for (const auto& family : certify_families())
        for (const auto& o : family.overrides) {
            EXPECT_NE(docs.find("| " + family.topology + " | " + o.cell + " |"), std::string::npos) << o.cell;
            EXPECT_NE(docs.find(o.reason), std::string::npos) << family.topology << " " << o.cell << ": its reason";
        }
    for (const auto& r : certify_recipes())
        for (const auto& o : r.overrides) {
            EXPECT_NE(docs.find("| " + r.recipe + " | " + o.cell + " |"), std::string::npos) << o.cell;
            EXPECT_NE(docs.find(o.reason), std::string::npos) << r.recipe << " " << o.cell << ": its reason";
        }
}

TEST(CertifyBattery, ARecipesOverrideShapesItsCellsSpecOnlyForThatRecipe) {
    const CertifyFamily& single = certify_family("redis-single");
    for (const auto& r : certify_recipes())
        for (const auto& o : r.overrides) {
            // The family whose own recipe it is (Redlock's five nodes), else redis-single.
            const CertifyFamily* family = &single;
            for (const auto& f : certify_families())
                if (f.recipe == r.recipe) family = &f;
            nlohmann::json j = family->base;
            const CertifyCell& c = cell_named(family->topology, o.cell);
            const nlohmann::json settings = cell_settings(c, *family, r.recipe);
            j.update(settings);
            j["topology"] = family->topology;
            j["recipe"] = r.recipe;
            j["time_limit_s"] = cell_time_limit_s(c, settings);
            resolve_ttl_ranges(j);
            EXPECT_NO_THROW(validate(spec_from_json(j, o.cell))) << r.recipe << " " << o.cell;
        }
    const CertifyCell& slow = cell_named("redis-single", "slow-reply");
    const nlohmann::json watch = cell_settings(slow, single, "redis-watch-multi");
    EXPECT_EQ(watch["slow_reply_ms"], "1.05xttl") << "the recipe's own field wins over the cell's";
    EXPECT_EQ(watch["server_timeout_ms"], 6000) << "the cell's other fields stay";
    EXPECT_EQ(cell_time_limit_s(slow, watch), 36);
    const nlohmann::json plain = cell_settings(slow, single, "redis-set-nx-px");
    EXPECT_EQ(plain["slow_reply_ms"], "1.5xttl") << "another recipe keeps the cell's settings";
    EXPECT_EQ(cell_time_limit_s(slow, plain), slow.time_limit_s);
    EXPECT_EQ(cell_settings(slow, single)["slow_reply_ms"], "1.5xttl") << "a client command gets no recipe's";
}

TEST(CertifyBattery, AFamilysOverrideAndLeaseRelativeRangesShapeItsCellsSpec) {
    const CertifyFamily& redlock = certify_family("redis-independent");
    nlohmann::json j = redlock.base;
    j.update(cell_settings(cell_named("redis-independent", "delay"), redlock));
    EXPECT_EQ(j["delay_ms"], "0.08xttl") << "the family's own field wins over the cell's";
    EXPECT_EQ(j["delay_nodes"], "every") << "the cell's other fields stay";
    j = redlock.base;
    j.update(cell_settings(cell_named("redis-independent", "slow-reply"), redlock));
    resolve_ttl_ranges(j);
    EXPECT_EQ(j["fault_duration_ms"], nlohmann::json({8000, 9000})) << "the cell's own window wins over the base";
    j = redlock.base;
    j.update(cell_settings(cell_named("redis-independent", "pause-holder"), redlock));
    resolve_ttl_ranges(j);
    EXPECT_EQ(j["fault_duration_ms"], nlohmann::json({3600, 4800})) << "1.2 to 1.6 x a TTL of 3000 ms";
    EXPECT_EQ(j["nemesis_gap_ms"], nlohmann::json({300, 800}));
    // Another family keeps the cell's own settings.
    EXPECT_EQ(cell_settings(cell_named("redis-single", "delay"), certify_family("redis-single"))["delay_ms"], "0.6xttl");
}

namespace {

/// Worker 1 is killed half-way through its acquire (sent at 0, killed at 100,
/// answered info, lease 1000 ms); worker 2 asks every 300 ms from 200 to 3200:
/// told "held" throughout when the dead client's lock has no lease, else
/// granted from `freed_at_ms` on. The CellRun certify reads from the
/// liveness findings (which never invalidate a run), with the danger count.
CellRun killed_client_run(std::optional<double> freed_at_ms) {
    lockcheck::testing::HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.kill_holder(100, 1);
    b.acquire_done(101, 1, OpType::Info);
    for (double t = 200; t <= 3200; t += 300) {
        b.acquire_invoke(t, 2);
        const bool granted = freed_at_ms && t >= *freed_at_ms;
        b.acquire_done(t + 5, 2, granted ? OpType::Ok : OpType::Fail);
        if (granted) b.release(t + 10, t + 11, 2);
    }
    const auto partner = pair_ops(b.history());
    CellRun run = run_with("valid", {});
    for (const auto& v : check_liveness(b.history(), partner).violations)
        run.violations.push_back({v.kind, v.description, v.details});
    run.danger_seen = static_cast<std::int64_t>(clients_killed_holding_or_acquiring(DangerRecord(b.history(), partner)));
    return run;
}

}  // namespace

TEST(CertifyCard, AStuckLockInTheKillClientCellIsTheClientsFault) {
    const auto& kill = cell_named("redis-single", "kill-client");
    EXPECT_EQ(kill.nemesis, std::vector<std::string>{"kill-holder"});
    EXPECT_EQ(certify_aim(kill.aim).settings["kill_holder_target"], "acquiring-first");
    // SETNX whose PEXPIRE never came: the lock outlives the lease the acquire asked for.
    const CellRun stuck = killed_client_run(std::nullopt);
    EXPECT_GE(stuck.danger_seen, 1) << "the kill left a half-made lock and the key was asked for after its lease";
    auto r = judge_cell(kill, {stuck});
    apply_evidence(r, kill, 3, stuck.danger_seen);
    EXPECT_EQ(r.status, CellStatus::NotMet) << "a violation stands whatever the evidence";
    EXPECT_EQ(r.why, "found stuck-lock");
    EXPECT_EQ(r.blame, "your client");
    EXPECT_EQ(r.first_violation.rfind("stuck-lock: ", 0), 0u) << r.first_violation;
    EXPECT_EQ(certify_exit_code({r}), 1);
    // A lock with its lease: busy until it could have run out (101 + 1000 ms), then free.
    const CellRun freed = killed_client_run(1400);
    EXPECT_TRUE(freed.violations.empty()) << freed.violations.front().description;
    r = judge_cell(kill, {freed});
    apply_evidence(r, kill, 1, freed.danger_seen);
    EXPECT_EQ(r.status, CellStatus::Met);
    EXPECT_EQ(r.blame, "");
    // A lease the server ended a little late (etcd revokes expired leases in
    // rounds): held less than a whole lease past every claim, no stuck lock.
    r = judge_cell(kill, {run_with("valid", {{kStuckLock, "held 354 ms", {{"stuck_ms", 354.3}, {"lease_ms", 2000}}}})});
    EXPECT_EQ(r.status, CellStatus::Met);
    EXPECT_EQ(r.blame, "");
    r = judge_cell(kill, {run_with("valid", {{kStuckLock, "held 2 s", {{"stuck_ms", 2000.0}, {"lease_ms", 2000}}}})});
    EXPECT_EQ(r.status, CellStatus::NotMet) << "a whole lease past every claim";
    // The same stuck lock elsewhere is a finding without blame: no other cell forbids it.
    r = judge_cell(cell_named("redis-single", "pause-holder"), {stuck});
    EXPECT_EQ(r.status, CellStatus::Met);
    EXPECT_EQ(r.blame, "");
}
