// Adversarial specs: names that would escape the store or break a server's
// config, and numbers that would never end a wait or would overflow into a
// fault of about 0 ms. Each is one clear error line (exit 254).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "run/run_directory.hpp"
#include "spec/spec.hpp"
#include "tests/support/spec_test_support.hpp"

using namespace lockcheck;
namespace fs = std::filesystem;

namespace {

const auto error_of = lockcheck::testing::spec_error_of;

/// The validation error of the default spec changed by `change` (a flag
/// overriding the spec skips the parser), or "" when accepted.
template <typename Change>
std::string flag_error(Change change) {
    Spec s;
    change(s);
    try {
        validate(s);
    } catch (const SpecError& e) {
        return e.what();
    }
    return "";
}

bool one_line(const std::string& message) { return !message.empty() && message.find('\n') == std::string::npos; }

}  // namespace

TEST(SpecNames, NamesThatLeaveTheStoreOrBreakAConfigAreRefused) {
    for (const std::string& name : std::vector<std::string>{
             "../../../../tmp/x", "/tmp/x", "a/b", "..", ".", ".hidden", "", "a b", "x\nrequirepass pwned", "tab\there",
             "caf\xc3\xa9", "quote\"", "latest", "suites", "compare", std::string(65, 'a')}) {
        const auto message = error_of({{"name", name}});
        EXPECT_TRUE(one_line(message)) << "name " << name << " gives: " << message;
        EXPECT_EQ(message.rfind("spec: field 'name' must", 0), 0u) << message;
    }
    EXPECT_EQ(error_of({{"name", "../../../../tmp/x"}}),
              "spec: field 'name' must be 1 to 64 characters from A-Z a-z 0-9 . _ -, not starting with '.' (it "
              "names the run directory), not \"../../../../tmp/x\"");
    EXPECT_EQ(error_of({{"name", "x\nrequirepass pwned"}}).find('\n'), std::string::npos) << "shown escaped";
}

TEST(SpecNames, OrdinaryNamesAreAccepted) {
    for (const std::string& name :
         std::vector<std::string>{"redis-holder-pause", "a", "v1.2_final-3", "x.", "-dash", std::string(64, 'z')})
        EXPECT_EQ(error_of({{"name", name}}), "") << name;
}

TEST(SpecNames, TheFlagIsCheckedToo) {
    EXPECT_NE(flag_error([](Spec& s) { s.name = "../escape"; }).find("field 'name'"), std::string::npos);
}

TEST(SpecNames, TheRunDirectoryRefusesAnUnsafeNameItself) {
    const auto store = fs::temp_directory_path() / ("lockcheck-names-" + std::to_string(::getpid()));
    EXPECT_THROW(create_run_directory(store, "../outside"), std::invalid_argument);
    EXPECT_THROW(create_run_directory(store, "/tmp/abs"), std::invalid_argument);
    EXPECT_FALSE(fs::exists(store.parent_path() / "outside"));
    const auto run = create_run_directory(store, "fine-name");
    EXPECT_EQ(run.path.parent_path(), store / "fine-name");
    fs::remove_all(store);
}

TEST(SpecBounds, WaitsLongerThanTheirBoundAreRefused) {
    const std::int64_t huge = std::int64_t{1} << 62;
    EXPECT_EQ(error_of({{"hold_ms", {0, huge}}}),
              "spec redis-holder-pause: field 'hold_ms' must be [min, max] with 0 <= min <= max <= 3600000 ms (at "
              "most 1 hour)");
    EXPECT_EQ(error_of({{"hold_ms", {0, 3'600'000}}}), "");
    EXPECT_EQ(error_of({{"hold_ms", {0, 3'600'001}}}).empty(), false);
    EXPECT_NE(error_of({{"think_ms", {0, huge}}}).find("field 'think_ms'"), std::string::npos);
    EXPECT_NE(error_of({{"nemesis_gap_ms", {0, huge}}}).find("field 'nemesis_gap_ms'"), std::string::npos);
    EXPECT_NE(error_of({{"fault_duration_ms", {0, huge}}}).find("field 'fault_duration_ms' must be [min, max]"),
              std::string::npos);
    EXPECT_NE(error_of({{"op_timeout_ms", huge}}).find("field 'op_timeout_ms' must be within [1, 3600000]"),
              std::string::npos);
    EXPECT_NE(error_of({{"server_timeout_ms", huge}}).find("field 'server_timeout_ms'"), std::string::npos);
}

TEST(SpecBounds, TtlIsBoundedBeforeAnythingComputesWithIt) {
    const std::int64_t huge = std::int64_t{1} << 61;  // 5/2 x this overflowed into a fault of about 0 ms
    EXPECT_EQ(error_of({{"ttl_ms", huge}}),
              "spec redis-holder-pause: field 'ttl_ms' must be within [1, 3600000] ms (at most 1 hour)");
    EXPECT_EQ(error_of({{"ttl_ms", 3'600'000}, {"op_timeout_ms", 3'600'000}, {"fault_duration_ms", {0, 1000}}}), "");
    EXPECT_NE(flag_error([](Spec& s) { s.ttl_ms = 0; }).find("field 'ttl_ms'"), std::string::npos) << "--ttl-ms 0";
    EXPECT_NE(flag_error([&](Spec& s) { s.ttl_ms = huge; }).find("field 'ttl_ms'"), std::string::npos);
}

TEST(SpecBounds, TimeLimitIsPositiveFiniteAndAtMostADay) {
    EXPECT_EQ(
        error_of({{"time_limit_s", 1e308}}),
        "spec redis-holder-pause: field 'time_limit_s' must be a number of seconds in (0, 86400] (at most 1 day)");
    EXPECT_EQ(error_of({{"time_limit_s", 86400}}), "");
    EXPECT_NE(error_of({{"time_limit_s", 0}}).find("field 'time_limit_s'"), std::string::npos);
    for (const double bad :
         {0.0, -1.0, 86400.5, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()})
        EXPECT_NE(flag_error([&](Spec& s) { s.time_limit_s = bad; }).find("field 'time_limit_s'"), std::string::npos)
            << "--time-limit " << bad;
}

TEST(SpecBounds, TtlMultiplesAreFiniteAndBounded) {
    EXPECT_EQ(error_of({{"nemesis", {"kill-restart"}}, {"restart_delay_ms", "1" + std::string(308, '0') + "xttl"}}),
              "spec redis-holder-pause: field 'restart_delay_ms' must be at most 1000xttl");
    EXPECT_NE(error_of({{"restart_delay_ms", "infxttl"}}).find("finite multiple of the TTL"), std::string::npos);
    EXPECT_NE(error_of({{"restart_delay_ms", "nanxttl"}}).find("finite multiple of the TTL"), std::string::npos);
    EXPECT_EQ(error_of({{"restart_delay_ms", "1000xttl"}}), "") << "1000 x 1000 ms is within the hour";
    EXPECT_EQ(error_of({{"restart_delay_ms", "1001xttl"}}),
              "spec redis-holder-pause: field 'restart_delay_ms' must be at most 1000xttl");
}

TEST(SpecBounds, RestartDelayAndClockSkewComeToBoundedTimes) {
    EXPECT_NE(error_of({{"restart_delay_ms", 3'600'001}}).find("field 'restart_delay_ms' must come to at most"),
              std::string::npos);
    EXPECT_NE(error_of({{"ttl_ms", 3'600'000},
                        {"op_timeout_ms", 3'600'000},
                        {"fault_duration_ms", {0, 1}},
                        {"restart_delay_ms", "2xttl"}})
                  .find("field 'restart_delay_ms' must come to at most 3600000 ms"),
              std::string::npos);
    EXPECT_NE(error_of({{"clock_skew_ms", std::int64_t{1} << 62}}).find("field 'clock_skew_ms'"), std::string::npos);
    EXPECT_NE(error_of({{"clock_skew_ms", -(std::int64_t{1} << 62)}}).find("field 'clock_skew_ms'"), std::string::npos);
    EXPECT_EQ(error_of({{"clock_skew_ms", -86'400'000}}), "");
    EXPECT_NE(error_of({{"clock_skew_ms", "5000xttl"}}).find("at most 1000xttl"), std::string::npos);
}

TEST(SpecBounds, CountsAreBounded) {
    EXPECT_NE(error_of({{"keys", 2'000'000'000}}).find("field 'keys' must be within [1, 1000]"), std::string::npos);
    EXPECT_NE(error_of({{"max_ops", std::int64_t{1} << 62}}).find("field 'max_ops' must be within"), std::string::npos);
    EXPECT_NE(flag_error([](Spec& s) { s.workers = 0; }).find("field 'workers'"), std::string::npos);
    EXPECT_NE(flag_error([](Spec& s) {
                  s.fault_options["packet_loss"] = std::numeric_limits<double>::quiet_NaN();
              }).find("field 'packet_loss'"),
              std::string::npos);
}

TEST(SpecBounds, RecipeOptionsThatAreWaitsAreBounded) {
    EXPECT_NE(
        error_of({{"recipe", "redis-setnx-expire"}, {"recipe_options", {{"expire_gap_ms", std::int64_t{1} << 62}}}})
            .find("recipe option 'expire_gap_ms' must be an integer in [0, 3600000]"),
        std::string::npos);
}

TEST(SpecBounds, EveryErrorIsOneLine) {
    for (const auto& spec : {nlohmann::json{{"hold_ms", {0, std::int64_t{1} << 62}}}, nlohmann::json{{"ttl_ms", 0}},
                             nlohmann::json{{"time_limit_s", 1e308}}, nlohmann::json{{"name", "a\nb"}}})
        EXPECT_TRUE(one_line(error_of(spec))) << spec.dump();
}
