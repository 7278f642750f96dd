// results.json read back (results_from_json): what results_to_json wrote
// comes back as it was, the run's figures and the expectation with it, and
// results that do not read are refused in one line naming the field or file.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "reports/results_json.hpp"
#include "tests/support/scratch_dir.hpp"

namespace lockcheck {
namespace {

/// A report with three checkers in name order (results.json keys them by
/// name): an invalid one with two violations, an advisory one and one with
/// more violations than results.json lists.
CheckReport constructed_report() {
    CheckReport report;
    report.valid = Validity::Invalid;
    report.exercised = {{"acquire_attempts", 12}, {"acquires_granted", 7}};
    CheckerResult advisory{"linearizability", Validity::Unknown, {}, 0, {{"searched", 5}}, false, 0};
    advisory.violations.push_back({"not-linearizable", {3, 4}, "no order explains it", nlohmann::json::object()});
    CheckerResult liveness{"liveness", Validity::Valid, {}, 0, {{"acquires", {{"attempts", 12}, {"ok", 7}}}}, true, 0};
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(kMaxListedViolations) + 5; ++i)
        liveness.violations.push_back({"stuck-lock", {i}, "held past its lease", {{"key", "k"}}});
    liveness.unlisted_violations = 2;
    CheckerResult exclusion{"mutual-exclusion", Validity::Invalid, {}, 0, {{"within_lease", 1}}, true, 0};
    exclusion.violations.push_back({"overlap-within-lease", {1, 2, 6}, "two holders", {{"key", "a"}}});
    exclusion.violations.push_back({"late-grant", {9}, "granted late", nlohmann::json::object()});
    report.checkers = {advisory, liveness, exclusion};
    return report;
}

void expect_same_violations(const CheckerResult& read, const CheckerResult& written, std::size_t listed) {
    ASSERT_EQ(read.violations.size(), listed) << read.name;
    for (std::size_t i = 0; i < listed; ++i) {
        EXPECT_EQ(read.violations[i].kind, written.violations[i].kind);
        EXPECT_EQ(read.violations[i].ops, written.violations[i].ops);
        EXPECT_EQ(read.violations[i].description, written.violations[i].description);
        EXPECT_EQ(read.violations[i].details, written.violations[i].details);
    }
}

std::string refusal(const nlohmann::json& results) {
    try {
        results_from_json(results);
    } catch (const ResultsError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted " << results.dump();
    return "";
}

}  // namespace

TEST(ResultsJson, ReadsBackWhatItWrote) {
    const CheckReport written = constructed_report();
    const RecordedResults read = results_from_json(results_to_json(written));
    EXPECT_EQ(read.report.valid, Validity::Invalid);
    EXPECT_EQ(read.report.unknown_reason, "");
    EXPECT_EQ(read.report.exercised, written.exercised);
    ASSERT_EQ(read.report.checkers.size(), written.checkers.size());
    for (std::size_t c = 0; c < written.checkers.size(); ++c) {
        const auto& r = read.report.checkers[c];
        const auto& w = written.checkers[c];
        EXPECT_EQ(r.name, w.name);
        EXPECT_EQ(r.valid, w.valid);
        EXPECT_EQ(r.counts_toward_verdict, w.counts_toward_verdict);
        EXPECT_EQ(r.stats, w.stats);
        EXPECT_EQ(r.violations_total(), w.violations_total()) << "listed or not, every violation is counted";
        expect_same_violations(r, w, std::min(w.violations.size(), kMaxListedViolations));
    }
    EXPECT_EQ(read.report.checkers[1].unlisted_violations, 7u) << "5 past the list, 2 the checker did not list";
    EXPECT_FALSE(read.run);
    EXPECT_FALSE(read.expectation);
    EXPECT_EQ(read.violation_kinds(), (std::set<std::string>{"late-grant", "overlap-within-lease", "stuck-lock"}))
        << "the advisory checker's kind is not among them";
    EXPECT_EQ(read.counted_violations_total(), 2 + 1007);
    ASSERT_NE(read.checker("mutual-exclusion"), nullptr);
    EXPECT_EQ(read.checker("mutual-exclusion")->stats["within_lease"], 1);
    EXPECT_EQ(read.checker("resource"), nullptr);
}

TEST(ResultsJson, ReadsTheUnknownVerdictTheRunAndTheExpectation) {
    CheckReport written;
    written.valid = Validity::Unknown;
    written.unknown_reason = "no acquire was granted";
    nlohmann::json results = results_to_json(written);
    results["run"] = {{"seed", 18446744073709551615ull},
                      {"ops", 40},
                      {"faults", 3},
                      {"seconds", 2.5},
                      {"interrupted", true},
                      {"stopped_early", {{"reason", "met"}, {"ops", 30}, {"seconds", 1.25}}},
                      {"client", "redis-py"},
                      {"network", "loopback"}};
    results["expectation"] = {{"matched", false}, {"mismatches", {"expected invalid, got unknown"}}};
    const RecordedResults read = results_from_json(results);
    EXPECT_EQ(read.report.valid, Validity::Unknown);
    EXPECT_EQ(read.report.unknown_reason, "no acquire was granted");
    EXPECT_TRUE(read.report.checkers.empty());
    ASSERT_TRUE(read.run);
    EXPECT_EQ(read.run->seed, 18446744073709551615ull);
    EXPECT_EQ(read.run->ops, 40);
    EXPECT_EQ(read.run->faults, 3);
    EXPECT_DOUBLE_EQ(read.run->seconds, 2.5);
    EXPECT_TRUE(read.run->interrupted);
    ASSERT_TRUE(read.run->stopped_early);
    EXPECT_EQ(read.run->stopped_early->reason, "met");
    EXPECT_EQ(read.run->stopped_early->ops, 30);
    EXPECT_EQ(read.run->client, "redis-py");
    ASSERT_TRUE(read.expectation);
    EXPECT_TRUE(read.expectation->applies);
    EXPECT_FALSE(read.expectation->matched);
    EXPECT_EQ(read.expectation->mismatches, std::vector<std::string>{"expected invalid, got unknown"});

    results["run"]["stopped_early"] = nullptr;  // what a run that was not stopped early writes
    results["expectation"] = {{"applies", false}, {"reason", "--seconds changed the scenario"}};
    const RecordedResults other = results_from_json(results);
    EXPECT_FALSE(other.run->stopped_early);
    EXPECT_FALSE(other.expectation->applies);
    EXPECT_EQ(other.expectation->reason, "--seconds changed the scenario");
    EXPECT_FALSE(written_results(nullptr)) << "null: results.json was not written";
}

TEST(ResultsJson, RefusesResultsThatDoNotReadInOneLineNamingTheField) {
    EXPECT_EQ(refusal(nlohmann::json::array()), "results.json: the file is an array, not an object");
    EXPECT_EQ(refusal({{"checkers", nlohmann::json::object()}}), "results.json: valid is missing (the verdict)");
    EXPECT_EQ(refusal({{"valid", "maybe"}}), "results.json: valid is a string, not true, false or \"unknown\"");
    EXPECT_EQ(refusal({{"valid", true}, {"checkers", {1, 2}}}), "results.json: checkers is an array, not an object");
    EXPECT_EQ(refusal({{"valid", false}, {"checkers", {{"mutual-exclusion", {{"violations", {{{"kind", 7}}}}}}}}}),
              "results.json: checkers.mutual-exclusion.violations[0].kind is an integer, not a string");
    EXPECT_EQ(
        refusal({{"valid", false},
                 {"checkers", {{"resource", {{"violations", {{{"kind", "lost-update"}}}}, {"violations_total", 0}}}}}}),
        "results.json: checkers.resource.violations_total is 0, fewer than the 1 violations listed");
    EXPECT_EQ(refusal({{"valid", true}, {"run", {{"seed", -1}}}}),
              "results.json: run.seed is an integer, not an integer of at least 0");
    EXPECT_EQ(refusal({{"valid", true}, {"expectation", {{"matched", "yes"}}}}),
              "results.json: expectation.matched is a string, not true or false");
    EXPECT_EQ(refusal({{"valid", true}, {"expectation", {{"mismatches", {"a", 2}}}}}),
              "results.json: expectation.mismatches[1] is an integer, not a string");
    EXPECT_THROW(written_results({{"valid", 1}}), ResultsError) << "a written file must read";
}

TEST(ResultsJson, ReadsAFileAndNamesItWhenItDoesNotRead) {
    testing::ScratchDir scratch("results-json");
    const auto path = scratch.path() / "results.json";
    const auto message = [&] {
        try {
            read_results_file(path);
        } catch (const ResultsError& e) {
            return std::string(e.what());
        }
        return std::string("read");
    };
    EXPECT_EQ(message(), path.string() + " does not exist");
    std::ofstream(path) << "{\"valid\": tru";
    EXPECT_EQ(message().rfind(path.string() + ": not valid JSON", 0), 0u) << message();
    std::ofstream(path) << R"({"valid": false, "checkers": {"x": {"valid": 3}}})";
    EXPECT_EQ(message(), path.string() + ": checkers.x.valid is an integer, not true, false or \"unknown\"");
    std::ofstream(path) << results_to_json(constructed_report()).dump(2);
    EXPECT_EQ(read_results_file(path).report.checkers.size(), 3u);
}

}  // namespace lockcheck
