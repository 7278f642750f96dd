#include <gtest/gtest.h>

#include <fstream>

#include "spec/spec.hpp"
#include "tests/support/spec_test_support.hpp"

using namespace lockcheck;

namespace {
const auto error_of = lockcheck::testing::spec_error_of;
}  // namespace

TEST(Spec, DefaultsAreTheDefaultScenario) {
    Spec s = spec_from_json(nlohmann::json::object(), "t");
    EXPECT_EQ(s.recipe, "redis-set-nx-px");
    EXPECT_EQ(s.workers, 5);
    EXPECT_EQ(s.ttl_ms, 1000);
    EXPECT_EQ(s.nemesis, std::vector<std::string>{"pause-holder"});
    EXPECT_EQ(s.fault_duration().min, 1500);
    EXPECT_EQ(s.fault_duration().max, 2500);
    EXPECT_NO_THROW(validate(s));
}

TEST(Spec, UnknownFieldIsNamed) {
    EXPECT_EQ(error_of({{"wrokers", 3}}), "spec t.json: field 'wrokers' is not a known field");
}

TEST(Spec, WrongTypeIsNamed) {
    EXPECT_EQ(error_of({{"workers", "five"}}), "spec t.json: field 'workers' must be an integer >= 1");
    EXPECT_EQ(error_of({{"workers", 1e300}}), "spec t.json: field 'workers' must be an integer >= 1");
    EXPECT_EQ(error_of({{"workers", 4294967297LL}}), "spec t.json: field 'workers' must be an integer >= 1");
    EXPECT_EQ(error_of({{"seed", -1}}), "spec t.json: field 'seed' must be a non-negative integer");
    EXPECT_EQ(error_of({{"hold_ms", {1e300, 2}}}),
              "spec t.json: field 'hold_ms' must be [min, max] with 0 <= min <= max");
    EXPECT_EQ(error_of({{"fencing", 1}}), "spec t.json: field 'fencing' must be true or false");
    EXPECT_EQ(error_of({{"hold_ms", {400, 100}}}),
              "spec t.json: field 'hold_ms' must be [min, max] with 0 <= min <= max");
    EXPECT_EQ(error_of({{"expect", {{"valid", "maybe"}}}}),
              "spec t.json expect: field 'valid' must be true, false or \"unknown\"");
}

TEST(Spec, UnknownRecipeAndFaultAreRejected) {
    EXPECT_NE(error_of({{"recipe", "zk-magic"}}).find("field 'recipe' names no known recipe"), std::string::npos);
    EXPECT_NE(error_of({{"nemesis", {"meteor"}}}).find("field 'nemesis' names no known fault"), std::string::npos);
}

TEST(Spec, RedlockOnTwoNodesIsRejected) {
    EXPECT_EQ(error_of({{"recipe", "redlock"}, {"topology", "redis-independent"}, {"nodes", 2}}),
              "spec redis-holder-pause: field 'nodes' must be at least 3 for redlock: with fewer, a majority is "
              "every node and one crash stops the lock");
    EXPECT_EQ(error_of({{"recipe", "redlock"}, {"topology", "redis-independent"}, {"nodes", 3}}), "");
}

TEST(Spec, FaultsLongerThanTheOpTimeoutAreRejected) {
    EXPECT_EQ(error_of({{"fault_duration_ms", {1000, 20000}}}),
              "spec redis-holder-pause: field 'fault_duration_ms' must stay below op_timeout_ms (10000 ms), or the "
              "controller would give up on a worker a fault holds still: lower its max (20000 ms) below 10000, or "
              "raise op_timeout_ms");
}

TEST(Spec, ADefaultFaultDurationRefusalSaysWhereItCameFromAndWhatToChange) {
    EXPECT_EQ(error_of({{"ttl_ms", 20000}}),
              "spec redis-holder-pause: field 'ttl_ms' of 20000 ms makes faults last 1.5 to 2.5 x ttl_ms = [30000, "
              "50000] ms (fault_duration_ms is not set), which must stay below op_timeout_ms (10000 ms), or the "
              "controller would give up on a worker a fault holds still: lower ttl_ms, raise op_timeout_ms, or set "
              "fault_duration_ms");
}

TEST(Spec, WithoutAFaultTheFaultDurationRuleDoesNotApply) {
    EXPECT_EQ(error_of({{"nemesis", nlohmann::json::array()}, {"ttl_ms", 20000}}), "");
    EXPECT_EQ(error_of({{"nemesis", nlohmann::json::array()}, {"fault_duration_ms", {1000, 20000}}}), "");
}

TEST(Spec, RuntimeIsReadCheckedAndWrittenBack) {
    EXPECT_EQ(spec_from_json(nlohmann::json::object(), "t").runtime, "netns");
    EXPECT_EQ(spec_to_json(spec_from_json({{"runtime", "netns"}}, "t"))["runtime"], "netns");
    EXPECT_EQ(error_of({{"runtime", "netns"}}), "");
    EXPECT_EQ(
        error_of({{"runtime", "vm"}}),
        "spec redis-holder-pause: field 'runtime' names no known runtime ('vm'); the runtimes are netns, docker, ssh");
    EXPECT_EQ(error_of({{"runtime", 3}}), "spec t.json: field 'runtime' must be a string");
}

TEST(Spec, HoldTimedByIsReadCheckedAndWrittenBack) {
    EXPECT_EQ(spec_from_json(nlohmann::json::object(), "t").hold_timed_by, "controller");
    EXPECT_EQ(spec_to_json(spec_from_json({{"hold_timed_by", "client"}}, "t"))["hold_timed_by"], "client");
    EXPECT_EQ(error_of({{"hold_timed_by", "client"}}), "");
    EXPECT_EQ(error_of({{"hold_timed_by", "worker"}}),
              "spec redis-holder-pause: field 'hold_timed_by' must be controller or client");
    EXPECT_EQ(error_of({{"hold_timed_by", "client"}, {"hold_ms", {100, 10'000}}}),
              "spec redis-holder-pause: field 'hold_ms' must end before op_timeout_ms (10000) when the client times "
              "its holds: the hold is one op");
    EXPECT_EQ(error_of({{"hold_ms", {100, 10'000}}}), "") << "the controller's holds are not one op";
}

TEST(Spec, ImageIsOnlyForRuntimeDocker) {
    EXPECT_EQ(spec_from_json(nlohmann::json::object(), "t").image, "");
    EXPECT_EQ(spec_to_json(spec_from_json({{"runtime", "docker"}, {"image", "redis:7.2"}}, "t"))["image"], "redis:7.2");
    EXPECT_EQ(error_of({{"runtime", "docker"}, {"image", "redis:7.2"}}), "");
    EXPECT_EQ(error_of({{"image", "redis:7.2"}}),
              "spec redis-holder-pause: field 'image' applies only to runtime docker (this spec's runtime is netns)");
}

TEST(Spec, HostsAreOnlyForAndRequiredByRuntimeSsh) {
    EXPECT_EQ(spec_to_json(spec_from_json({{"runtime", "ssh"}, {"hosts", "h.json"}}, "t"))["hosts"], "h.json");
    EXPECT_EQ(error_of({{"runtime", "ssh"}, {"hosts", "h.json"}}), "");
    EXPECT_EQ(error_of({{"hosts", "h.json"}}),
              "spec redis-holder-pause: field 'hosts' applies only to runtime ssh (this spec's runtime is netns)");
    EXPECT_EQ(error_of({{"runtime", "ssh"}}),
              "spec redis-holder-pause: field 'hosts' is required by runtime ssh (or flag --hosts)");
}

TEST(Spec, ResolvedSpecRoundTrips) {
    Spec s =
        spec_from_json({{"seed", 7}, {"fencing", true}, {"expect", {{"valid", false}, {"has", {"lost-update"}}}}}, "t");
    Spec back = spec_from_json(spec_to_json(s), "t");
    EXPECT_EQ(back.seed, 7u);
    EXPECT_TRUE(back.fencing);
    ASSERT_TRUE(back.expect);
    EXPECT_EQ(back.expect->valid, "invalid");
    EXPECT_EQ(back.expect->has, std::vector<std::string>{"lost-update"});
    EXPECT_EQ(spec_to_json(back), spec_to_json(s));
}

TEST(Spec, BrokenFileGivesOneLine) {
    const auto path = std::filesystem::temp_directory_path() / "lockcheck-broken-spec.json";
    std::ofstream(path) << "{\"workers\": 3,";
    try {
        read_spec(path);
        FAIL();
    } catch (const SpecError& e) {
        EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
    }
    std::filesystem::remove(path);
}

TEST(Spec, ShippedScenariosParseAndValidate) {
    for (const auto& entry : std::filesystem::directory_iterator(LOCKCHECK_SOURCE_DIR "/scenarios")) {
        SCOPED_TRACE(entry.path().string());
        Spec s;
        ASSERT_NO_THROW(s = read_spec(entry.path()));
        EXPECT_NO_THROW(validate(s));
        EXPECT_TRUE(s.expect.has_value()) << "a scenario carries the verdict it must reach";
        EXPECT_EQ(s.name, entry.path().stem().string());
    }
}

TEST(Spec, RecipeOptionsAreCheckedAgainstTheRecipe) {
    EXPECT_EQ(error_of({{"recipe", "redis-setnx-expire"}, {"recipe_options", {{"expire_gap_ms", 50}}}}), "");
    EXPECT_NE(error_of({{"recipe", "redis-setnx-expire"}, {"recipe_options", {{"expire_gap_ms", -1}}}})
                  .find("field 'recipe_options' is not valid: recipe option 'expire_gap_ms' must be an integer in [0, "
                        "3600000]"),
              std::string::npos);
    EXPECT_NE(error_of({{"recipe_options", {{"expire_gap_ms", 50}}}}).find("has no option 'expire_gap_ms'"),
              std::string::npos)
        << "redis-set-nx-px has no gap";
    EXPECT_NE(error_of({{"recipe_options", 3}}).find("field 'recipe_options' must be an object"), std::string::npos);
    const Spec s = spec_from_json({{"recipe", "redis-setnx-expire"}, {"recipe_options", {{"expire_gap_ms", 50}}}}, "t");
    EXPECT_EQ(spec_to_json(s)["recipe_options"]["expire_gap_ms"], 50);
}

TEST(Spec, DurabilitySettingsAreReadCheckedAndWrittenBack) {
    const nlohmann::json zk{{"recipe", "zk-sequential"}, {"topology", "zookeeper"}, {"zookeeper_force_sync", false}};
    EXPECT_EQ(error_of(zk), "");
    EXPECT_FALSE(spec_from_json(zk, "t").durability.zookeeper_force_sync);
    const nlohmann::json mariadb{{"recipe", "mysql-table-record"},
                                 {"topology", "mysql-single"},
                                 {"mariadb_flush_log_at_trx_commit", 2},
                                 {"mariadb_sync_binlog", 1},
                                 {"mariadb_doublewrite", false}};
    EXPECT_EQ(error_of(mariadb), "");
    const Spec back = spec_from_json(spec_to_json(spec_from_json(mariadb, "t")), "t");
    EXPECT_EQ(back.durability.mariadb_flush_log_at_trx_commit, 2);
    EXPECT_EQ(back.durability.mariadb_sync_binlog, 1);
    EXPECT_FALSE(back.durability.mariadb_doublewrite);
    EXPECT_EQ(error_of({{"recipe", "etcd-lease-lock"}, {"topology", "etcd"}, {"etcd_fsync", false}}), "");
}

TEST(Spec, DurabilitySettingsOutsideTheirValuesOrTopologiesAreRefusedInOneLine) {
    const nlohmann::json mariadb{{"recipe", "mysql-table-record"}, {"topology", "mysql-single"}};
    auto with = [&](const char* field, nlohmann::json value) {
        auto spec = mariadb;
        spec[field] = std::move(value);
        return error_of(spec);
    };
    EXPECT_EQ(with("mariadb_flush_log_at_trx_commit", 3),
              "spec redis-holder-pause: field 'mariadb_flush_log_at_trx_commit' must be 0, 1 or 2");
    EXPECT_EQ(with("mariadb_sync_binlog", 2), "spec redis-holder-pause: field 'mariadb_sync_binlog' must be 0 or 1");
    EXPECT_EQ(with("zookeeper_force_sync", "no"), "spec t.json: field 'zookeeper_force_sync' must be true or false");
    EXPECT_EQ(with("zookeeper_force_sync", false),
              "spec redis-holder-pause: field 'zookeeper_force_sync' applies to topology zookeeper only");
    EXPECT_EQ(error_of({{"mariadb_flush_log_at_trx_commit", 0}}),
              "spec redis-holder-pause: field 'mariadb_flush_log_at_trx_commit' applies to topology mysql-single or "
              "mysql-replicated only");
    EXPECT_EQ(error_of({{"mariadb_doublewrite", false}}),
              "spec redis-holder-pause: field 'mariadb_doublewrite' applies to topology mysql-single or "
              "mysql-replicated only");
    EXPECT_EQ(error_of({{"etcd_fsync", false}}),
              "spec redis-holder-pause: field 'etcd_fsync' applies to topology etcd only");
}
