// Spec field `schedule`: a run's nemesis-schedule.json read back as it is,
// the defaults, and one clear line for each kind of bad schedule.
#include <gtest/gtest.h>

#include "spec/spec.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/schedule_json.hpp"
#include "tests/support/spec_test_support.hpp"

using namespace lockcheck;
using lockcheck::testing::spec_error_of;

namespace {

nlohmann::json spec_with(const nlohmann::json& schedule) {
    return {{"name", "t"}, {"recipe", "redis-set-nx-px"}, {"topology", "redis-single"}, {"time_limit_s", 10},
            {"schedule", schedule}};
}

/// `object` with the fields of `more` set (nlohmann's update returns nothing).
nlohmann::json with(nlohmann::json object, const nlohmann::json& more) {
    object.update(more);
    return object;
}

nlohmann::json pause(std::int64_t at_ms, std::int64_t duration_ms, const nlohmann::json& more = nlohmann::json::object()) {
    return with({{"fault", "pause-holder"}, {"at_ms", at_ms}, {"duration_ms", duration_ms}}, more);
}

}  // namespace

TEST(ScheduleField, AWrittenScheduleReadsBackAsItIs) {
    ScheduleOptions o;
    o.seed = 42;
    o.kinds = {"pause-holder", "kill-holder"};
    o.time_limit_ms = 20'000;
    auto generated = generate_schedule(o);
    for (auto& e : generated) e.options = options_of_fault(e.kind, default_fault_options());
    generated.back().after_grant_ms = 250;
    const auto json = schedule_to_json(generated);
    const auto read = schedule_from_json(json);
    EXPECT_EQ(schedule_to_json(read), json);
    const Spec spec = spec_from_json(with(spec_with(json), {{"time_limit_s", 20}}), "t.json");
    ASSERT_TRUE(spec.schedule);
    EXPECT_EQ(schedule_to_json(*spec.schedule), json);
    EXPECT_EQ(spec.nemesis, schedule_kinds(generated)) << "nemesis left out: the schedule's faults";
    EXPECT_EQ(spec_error_of(with(spec_with(json), {{"time_limit_s", 20}})), "");
    EXPECT_EQ(spec_to_json(spec)["schedule"], json) << "the resolved spec keeps it";
}

TEST(ScheduleField, DefaultsIdsTargetDelayAndPick) {
    const auto events = schedule_from_json(nlohmann::json::array({pause(1000, 500), pause(2000, 400)}));
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].id, 2);
    EXPECT_EQ(events[1].kind, "pause-holder");
    EXPECT_EQ(events[1].at_ms, 2000);
    EXPECT_EQ(events[1].duration_ms, 400);
    EXPECT_EQ(events[0].target_delay_ms, 10);
    EXPECT_EQ(events[0].pick, 0u);
    EXPECT_TRUE(events[0].options.is_null());
    EXPECT_FALSE(events[0].after_grant_ms);
    EXPECT_EQ(fault_instance_key(events[0]), "pause-holder");
}

TEST(ScheduleField, AnEmptyScheduleRunsNoFault) {
    const Spec spec = spec_from_json(spec_with(nlohmann::json::array()), "t.json");
    ASSERT_TRUE(spec.schedule);
    EXPECT_TRUE(spec.schedule->empty());
    EXPECT_TRUE(spec.nemesis.empty());
    EXPECT_EQ(spec_error_of(spec_with(nlohmann::json::array())), "");
}

TEST(ScheduleField, EachBadScheduleGetsOneLineNamingTheEvent) {
    const auto error = [](const nlohmann::json& schedule) { return spec_error_of(spec_with(schedule)); };
    const auto expect_error = [&](const nlohmann::json& schedule, const std::string& words) {
        const auto e = error(schedule);
        EXPECT_NE(e.find(words), std::string::npos) << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        EXPECT_EQ(e.rfind("spec ", 0), 0u) << e;
    };
    // A list given as {...} of one object would read as that object: events go through a vector.
    const auto expect_events = [&](const std::vector<nlohmann::json>& events, const std::string& words) {
        expect_error(nlohmann::json(events), words);
    };
    expect_error({{"fault", "pause-holder"}}, "field 'schedule' must be a list of fault events");
    expect_events({42}, "field 'schedule' event 1 must be an object");
    expect_events({{{"at_ms", 1000}, {"duration_ms", 10}}}, "event 1 has no field 'fault'");
    expect_events({{{"fault", "pause-holder"}, {"duration_ms", 10}}}, "event 1 has no field 'at_ms'");
    expect_events({{{"fault", "pause-holder"}, {"at_ms", 10}}}, "event 1 has no field 'duration_ms'");
    expect_events({pause(-5, 10)}, "event 1 field 'at_ms' must be an integer >= 0");
    expect_events({pause(100, 10, {{"colour", "red"}})}, "event 1 field 'colour' is not a field");
    expect_events({pause(100, 10, {{"id", 3}}), pause(200, 10, {{"id", 3}})}, "event 2 field 'id' repeats");
    expect_events({pause(2000, 10), pause(1000, 10)}, "event 2 field 'at_ms' (1000) is before the previous event's");
    expect_events({pause(100, 10, {{"options", 5}})}, "event 1 field 'options' must be an object");
    expect_events({pause(100, 10, {{"kind", "pause-holder"}})}, "has both 'fault' and 'kind'");
    expect_events({pause(100, 10, {{"fault", "meteor"}})}, "names no known fault");
    expect_events({pause(20'000, 10)}, "event 1 field 'at_ms' (20000) is not before the time limit (10000 ms)");
    expect_events({pause(100, 10'000)}, "event 1 field 'duration_ms' (10000) must stay below op_timeout_ms");
    expect_events({pause(100, 10, {{"options", {{"restart_delay_ms", 5}}}})},
                 "event 1 option 'restart_delay_ms' is no option of fault 'pause-holder'");
    expect_events({pause(100, 10, {{"after_grant_ms", 70'000}})}, "field 'after_grant_ms' must be at most 60000");
    // A fault of the schedule the spec's nemesis leaves out.
    EXPECT_NE(spec_error_of(with(spec_with(nlohmann::json::array({pause(100, 10)})), {{"nemesis", {"kill-holder"}}}))
                  .find("event 1 fault 'pause-holder' is not in field nemesis"),
              std::string::npos);
}

TEST(ScheduleField, AnEventsOwnOptionsAreCheckedAgainstItsFault) {
    const nlohmann::json kill = {{"fault", "kill-restart"}, {"at_ms", 100}, {"duration_ms", 0}};
    auto spec = spec_with(nlohmann::json::array({kill}));
    spec["topology"] = "redis-independent";
    spec["recipe"] = "redlock";
    EXPECT_EQ(spec_error_of(spec), "");
    spec["schedule"][0]["options"] = {{"restart_delay_ms", "nonsense"}};
    EXPECT_NE(spec_error_of(spec).find("event 1 option 'restart_delay_ms'"), std::string::npos) << spec_error_of(spec);
    spec["schedule"][0]["options"] = {{"restart_delay_ms", 1500}};
    EXPECT_EQ(spec_error_of(spec), "");
    const Spec read = spec_from_json(spec, "t.json");
    EXPECT_EQ(fault_instance_key(read.schedule->front()), "kill-restart {\"restart_delay_ms\":1500}");
}
