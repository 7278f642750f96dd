// Specs, flags and compare grids that were accepted with a wrong meaning or
// refused with the wrong words (issue 33, items 1, 11, 12 and 13): each is now
// one line naming what to change, exit 254, before anything is made.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "checkers/mutual_exclusion.hpp"
#include "checkers/violation_kinds.hpp"
#include "harness/exit_codes.hpp"
#include "harness/spec.hpp"
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
    const lockcheck::testing::ScratchDir dir("spec-refusals");
    write_file(dir.path() / "typo.json", R"({"expect": {"valid": false, "lacks": ["overlap-within-leas"]}})");
    const auto ran = lockcheck::testing::run_cli(
        {"run", (dir.path() / "typo.json").string(), "--store", (dir.path() / "store").string()});
    EXPECT_EQ(ran.exit_code, exit_code::kBadInput);
    expect_one_line_with(ran.err, "field 'lacks' holds \"overlap-within-leas\", which is no violation kind");
    EXPECT_FALSE(fs::exists(dir.path() / "store"));
}
