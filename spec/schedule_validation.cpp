#include "spec/schedule_validation.hpp"

#include <algorithm>

#include "core/option_kinds.hpp"
#include "nemesis/fault_factory.hpp"
#include "nemesis/fresh_grant.hpp"

namespace lockcheck {
namespace {

std::string option_names(const FaultDescriptor& fault) {
    std::string names;
    for (const auto& option : fault.options) names += (names.empty() ? "" : ", ") + option.name;
    return names.empty() ? "none" : names;
}

/// The event's own options: known to its fault, of the right form and
/// within bounds, and a combination its fault can run.
void check_event_options(const Spec& s, const FaultEvent& e, const FaultDescriptor& fault,
                         const std::function<void(const std::string&)>& fail) {
    if (!e.options.is_object()) return;
    for (const auto& [name, value] : e.options.items()) {
        const OptionDescriptor* option = find_option(fault.options, name);
        if (!option)
            fail("option '" + name + "' is no option of fault '" + e.kind + "' (its options: " + option_names(fault) +
                 ")");
        if (const auto problem = option_problem(*option, value, OptionContext{s.ttl_ms}))
            fail("option '" + name + "' " + *problem);
    }
    if (!fault.refuses) return;
    nlohmann::json options = s.fault_options;
    options.update(e.options);
    const SpecView view{s.recipe, s.topology, s.ttl_ms, s.nodes, s.nemesis, s.recipe_options, options};
    if (const auto refusal = fault.refuses(view)) fail("option '" + refusal->field + "' " + refusal->reason);
}

}  // namespace

void check_schedule(const Spec& s, const std::vector<ResolvedFault>& faults,
                    const std::function<void(const std::string&, const std::string&)>& fail) {
    if (!s.schedule) return;
    const auto limit_ms = static_cast<std::int64_t>(s.time_limit_s * 1000);
    for (std::size_t i = 0; i < s.schedule->size(); ++i) {
        const FaultEvent& e = (*s.schedule)[i];
        const auto event_fails = [&](const std::string& reason) {
            fail("schedule", "event " + std::to_string(i + 1) + " " + reason);
        };
        if (std::find(s.nemesis.begin(), s.nemesis.end(), e.kind) == s.nemesis.end())
            event_fails("fault '" + e.kind +
                        "' is not in field nemesis (leave nemesis out to use the schedule's faults)");
        const ResolvedFault* fault = find_resolved_fault(faults, e.kind);
        if (!fault) event_fails("fault '" + e.kind + "' names no known fault; `lockcheck list` shows them");
        if (e.at_ms >= limit_ms)
            event_fails("field 'at_ms' (" + std::to_string(e.at_ms) + ") is not before the time limit (" +
                        std::to_string(limit_ms) + " ms): it would never run");
        if (e.duration_ms >= s.op_timeout_ms)
            event_fails("field 'duration_ms' (" + std::to_string(e.duration_ms) + ") must stay below op_timeout_ms (" +
                        std::to_string(s.op_timeout_ms) +
                        " ms), or the controller would give up on a worker a fault holds still");
        if (e.target_delay_ms > spec_bounds::kMaxDurationMs)
            event_fails("field 'target_delay_ms' must be at most " + std::to_string(spec_bounds::kMaxDurationMs));
        if (e.after_grant_ms && *e.after_grant_ms > kMaxAfterGrantMs)
            event_fails("field 'after_grant_ms' must be at most " + std::to_string(kMaxAfterGrantMs));
        check_event_options(s, e, *fault->descriptor, event_fails);
    }
}

}  // namespace lockcheck
