// Specs, flags and compare grids that were accepted with a wrong meaning or
// refused with the wrong words (issue 33, items 1, 4, 11, 12 and 13): each is now
// one line naming what to change, exit 254, before anything is made.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "checkers/mutual_exclusion.hpp"
#include "checkers/violation_kinds.hpp"
#include "core/ttl_time.hpp"
#include "commands/compare/compare_grid.hpp"
#include "run/exit_codes.hpp"
#include "spec/spec.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/spec_test_support.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;

namespace {

const auto error_of = lockcheck::testing::spec_error_of;

/// One line, ending in '\n', with `words` in it.
void expect_one_line_with(const std::string& err, const std::string& words) {
    EXPECT_NE(err.find(words), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

void write_file(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

/// `lockcheck COMMAND SPEC ARGS... --store STORE`, SPEC holding `spec_text`: refused with exit 254 in one
/// line with `words`, before the store exists.
void expect_refused_before_the_store(const std::string& command, const std::string& spec_text,
                                     const std::vector<std::string>& args, const std::string& words) {
    const lockcheck::testing::ScratchDir dir("spec-refusals");
    write_file(dir.path() / "s.json", spec_text);
    std::vector<std::string> all{command, (dir.path() / "s.json").string()};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"--store", (dir.path() / "store").string()});
    const auto ran = lockcheck::testing::run_cli(all);
    EXPECT_EQ(ran.exit_code, exit_code::kBadInput);
    expect_one_line_with(ran.err, words);
    EXPECT_FALSE(fs::exists(dir.path() / "store"));
}

}  // namespace

// Item 1: typos in `lacks` made "scenario expectation: met" whatever the run found.
TEST(SpecRefusals, AnExpectationNamingNoViolationKindIsRefusedNamingTheField) {
    const auto lacks = error_of({{"expect", {{"lacks", {"overlap-within-leas", "lost-updat"}}}}});
    EXPECT_NE(lacks.find("field 'lacks'"), std::string::npos) << lacks;
    EXPECT_NE(lacks.find("\"overlap-within-leas\""), std::string::npos) << lacks;
    EXPECT_NE(lacks.find(kOverlapWithinLease), std::string::npos) << "the known kinds are listed: " << lacks;
    const auto has = error_of({{"expect", {{"valid", false}, {"has", {"lost-update", "overlap"}}}}});
    EXPECT_NE(has.find("field 'has' holds \"overlap\""), std::string::npos) << has;
    for (const auto kind : violation_kinds())
        EXPECT_EQ(error_of({{"expect", {{"has", {std::string(kind)}}, {"lacks", {std::string(kind)}}}}}), "") << kind;
}

TEST(SpecRefusals, ARunWithAMistypedExpectationExits254BeforeItMakesAStore) {
    expect_refused_before_the_store("run", R"({"expect": {"valid": false, "lacks": ["overlap-within-leas"]}})", {},
                                    "field 'lacks' holds \"overlap-within-leas\", which is no violation kind");
}

// Item 11: --seed -1 and 2^64 wrapped to 2^64 - 1; an empty --nemesis meant none.
TEST(SpecRefusals, ASeedFlagOutsideSixtyFourBitsIsRefused) {
    for (const char* command : {"run", "compare"})
        for (const char* seed : {"-1", "18446744073709551616", "+5", "0x10", "1e3"}) {
            std::vector<std::string> args{command, "--seed", seed};
            if (std::string(command) == "compare") args.insert(args.end(), {"--vary", "ttl_ms=1000", "/dev/null"});
            const auto ran = lockcheck::testing::run_cli(args);
            EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << command << " " << seed;
            EXPECT_NE(ran.err.find("must be an integer from 0 to 18446744073709551615"), std::string::npos)
                << command << " " << seed << ": " << ran.err;
        }
}

TEST(SpecRefusals, AnEmptyFaultNameInTheNemesisFlagIsRefused) {
    const lockcheck::testing::ScratchDir dir("spec-refusals");
    for (const char* nemesis : {"", ",,", "pause-holder,", ",pause-holder"}) {
        const auto ran =
            lockcheck::testing::run_cli({"run", "--nemesis", nemesis, "--store", (dir.path() / "store").string()});
        EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << nemesis;
        expect_one_line_with(ran.err, "has an empty fault name");
        EXPECT_FALSE(fs::exists(dir.path() / "store"));
    }
}

TEST(SpecRefusals, ALeaseTooLongForTheDefaultFaultDurationNamesTtlMs) {
    const auto ttl = error_of({{"ttl_ms", 4001}});
    EXPECT_NE(ttl.find("field 'ttl_ms'"), std::string::npos) << ttl;
    EXPECT_NE(ttl.find("lower ttl_ms, raise op_timeout_ms, or set fault_duration_ms"), std::string::npos) << ttl;
    EXPECT_EQ(ttl.find("field 'fault_duration_ms'"), std::string::npos) << "a field the user never set: " << ttl;
    const auto set = error_of({{"ttl_ms", 1000}, {"fault_duration_ms", {100, 20000}}});
    EXPECT_NE(set.find("field 'fault_duration_ms'"), std::string::npos) << "the field the user set: " << set;
}

// Item 12: a duplicate key won silently; "0x10xttl" was read as 16; " 1xttl" and "+2xttl" passed;
// a negative multiple of the lease was refused where negative milliseconds were not.
TEST(SpecRefusals, AKeyTwiceInASpecFileIsRefused) {
    const lockcheck::testing::ScratchDir dir("spec-refusals");
    write_file(dir.path() / "twice.json", R"({"ttl_ms": 1000, "workers": 2, "ttl_ms": 2000})");
    try {
        read_spec(dir.path() / "twice.json");
        ADD_FAILURE() << "a key twice was accepted";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("key \"ttl_ms\" appears twice in one object"), std::string::npos)
            << e.what();
    }
    write_file(dir.path() / "nested.json", R"({"recipe_options": {"a": 1, "b": {"a": 2}}, "ttl_ms": 1000})");
    try {
        read_spec(dir.path() / "nested.json");  // the same key in two objects is no duplicate
    } catch (const SpecError& e) {
        EXPECT_EQ(std::string(e.what()).find("appears twice"), std::string::npos) << e.what();
    }
}

TEST(SpecRefusals, AMultipleOfTheLeaseIsPlainDecimalDigits) {
    for (const char* text :
         {"0x10xttl", " 1xttl", "+2xttl", "1e1xttl", "xttl", ".5xttl", "1.xttl", "-2xttl", "nanxttl"})
        EXPECT_FALSE(ttl_time_from_json(text, false)) << text;
    for (const char* text : {"0x10xttl", " 1xttl", "+2xttl", "--2xttl"}) EXPECT_FALSE(ttl_time_from_json(text, true));
    EXPECT_EQ(ttl_time_from_json("1.5xttl", false)->resolve(1000), 1500);
    EXPECT_EQ(ttl_time_from_json("-2xttl", true)->resolve(1000), -2000);
    EXPECT_EQ(ttl_time_from_json("0.0000001xttl", false)->to_json(), "0.0000001xttl") << "reads back as it was";
    const auto hex = error_of({{"restart_delay_ms", "0x10xttl"}});
    EXPECT_NE(hex.find("field 'restart_delay_ms'"), std::string::npos) << hex;
}

TEST(SpecRefusals, ANegativeClockSkewMayBeAMultipleOfTheLeaseAsTheDocsSay) {
    EXPECT_EQ(error_of({{"nemesis", {"clock-skew"}}, {"clock_skew_ms", -2000}}), "");
    EXPECT_EQ(error_of({{"nemesis", {"clock-skew"}}, {"clock_skew_ms", "-2xttl"}}), "");
    const auto far = error_of({{"nemesis", {"clock-skew"}}, {"clock_skew_ms", "-1001xttl"}});
    EXPECT_NE(far.find("must be at most 1000xttl either way"), std::string::npos) << far;
}

// Item 13: raw "filesystem error" (255), "is no directory" for an empty one, "does not exist" for /tmp,
// a quoted --vary value split at its comma, and a field varied twice.
TEST(SpecRefusals, ASuiteDirectoryWithALinkLoopOrNoSpecSaysSo) {
    const lockcheck::testing::ScratchDir dir("spec-refusals");
    fs::create_directory(dir.path() / "empty");
    const auto empty = lockcheck::testing::run_cli(
        {"suite", (dir.path() / "empty").string(), "--store", (dir.path() / "store").string()});
    EXPECT_EQ(empty.exit_code, exit_code::kBadInput);
    expect_one_line_with(empty.err, "holds no spec file (*.json)");
    fs::create_directory(dir.path() / "loop");
    fs::create_symlink("x.json", dir.path() / "loop" / "x.json");
    const auto loop = lockcheck::testing::run_cli(
        {"suite", (dir.path() / "loop").string(), "--store", (dir.path() / "store").string()});
    EXPECT_EQ(loop.exit_code, exit_code::kBadInput);
    expect_one_line_with(loop.err, "x.json: cannot be examined: Too many levels of symbolic links");
    fs::create_symlink("selfloop", dir.path() / "selfloop");
    const auto self = lockcheck::testing::run_cli(
        {"suite", (dir.path() / "selfloop").string(), "--store", (dir.path() / "store").string()});
    EXPECT_EQ(self.exit_code, exit_code::kBadInput);
    expect_one_line_with(self.err, "cannot be examined");
    EXPECT_FALSE(fs::exists(dir.path() / "store"));
}

TEST(SpecRefusals, RunOfADirectorySaysItIsADirectory) {
    const auto ran = lockcheck::testing::run_cli({"run", fs::temp_directory_path().string()});
    EXPECT_EQ(ran.exit_code, exit_code::kBadInput);
    expect_one_line_with(ran.err, "is a directory, not a regular file");
}

TEST(SpecRefusals, AQuotedVaryValueKeepsItsCommasAndAFieldIsVariedOnce) {
    const auto vary = parse_vary(R"(description="a,b",c,"say \"x,y\"")");
    ASSERT_EQ(vary.values.size(), 3u);
    EXPECT_EQ(vary.values[0], "a,b");
    EXPECT_EQ(vary.values[1], "c");
    EXPECT_EQ(vary.values[2], "say \"x,y\"");
    try {
        expand_grid(Spec{}, {parse_vary("ttl_ms=1000,2000"), parse_vary("ttl_ms=3000")});
        ADD_FAILURE() << "a field varied twice was accepted";
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("--vary ttl_ms is given twice"), std::string::npos) << e.what();
    }
}

// Item 4: 768,000 cells grew to 6 GB before the first run.
TEST(SpecRefusals, AGridOfMoreThanTenThousandRunsIsRefusedBeforeACellIsBuilt) {
    std::string ttls = "ttl_ms=1", workers = "workers=1";
    for (int i = 2; i <= 3000; ++i) ttls += "," + std::to_string(i);
    for (int i = 2; i <= 256; ++i) workers += "," + std::to_string(i);
    expect_refused_before_the_store("compare", "{}", {"--vary", ttls, "--vary", workers},
                                    "the grid asks for more than 10000 runs (3000 x 256 cells x 3 runs)");
    EXPECT_NO_THROW(check_grid_size({parse_vary("ttl_ms=1000,2000")}, 5000));
    EXPECT_THROW(check_grid_size({parse_vary("ttl_ms=1000,2000")}, 5001), SpecError);
}
