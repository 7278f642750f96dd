// Building the faults of one run from their names (nemesis/fault_registry.hpp).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/option_descriptor.hpp"
#include "nemesis/fault_descriptor.hpp"

namespace lockcheck {

/// What the factory of `fault` gets: its options from `fault_options` (the
/// spec's, keyed by field), or their defaults, resolved against `context`
/// ("2xttl" in ms).
nlohmann::json fault_options_for(const FaultDescriptor& fault, const nlohmann::json& fault_options,
                                 const OptionContext& context);

/// The options fault `kind` declares, with their values in `fault_options`
/// (stored form, as the spec holds them): what an event of a generated
/// schedule carries. An empty object for an unknown kind.
nlohmann::json options_of_fault(const std::string& kind, const nlohmann::json& fault_options);

/// One fault per kind in `kinds`, each given fault_options_for it.
/// Throws std::invalid_argument naming a kind that is unknown or cannot run
/// here (e.g. a partition without namespaces).
std::map<std::string, std::unique_ptr<Fault>> make_faults(const std::vector<std::string>& kinds,
                                                          const FaultTargets& targets,
                                                          const nlohmann::json& fault_options,
                                                          const OptionContext& context);

/// One fault per fault_instance_key among `schedule`'s events, keyed by it:
/// each given fault_options_for its kind, from `fault_options` updated with
/// the event's own options. Throws as make_faults does.
std::map<std::string, std::unique_ptr<Fault>> make_schedule_faults(const std::vector<FaultEvent>& schedule,
                                                                   const FaultTargets& targets,
                                                                   const nlohmann::json& fault_options,
                                                                   const OptionContext& context);

}  // namespace lockcheck
