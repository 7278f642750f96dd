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

/// The options `fault` declares, with their values in `fault_options`
/// (stored form, as the spec holds them): what an event of a generated
/// schedule carries.
nlohmann::json stored_options_of(const FaultDescriptor& fault, const nlohmann::json& fault_options);

/// stored_options_of the fault called `kind`; an empty object for an unknown kind.
nlohmann::json options_of_fault(const std::string& kind, const nlohmann::json& fault_options);

/// A fault of a run's nemesis, resolved once from its name (the run's plan,
/// spec/run_plan.hpp, holds one per fault).
struct ResolvedFault {
    const FaultDescriptor* descriptor = nullptr;  ///< its registry entry, never null
    /// Its own options as the spec stores them ("2xttl" a string):
    /// stored_options_of, what an event of a generated schedule carries.
    nlohmann::json stored_options;
    /// The same resolved against the run (fault_options_for): what its factory gets.
    nlohmann::json options;
};

/// `fault` with its options from `fault_options` (the spec's, keyed by
/// field), stored and resolved against `context`.
ResolvedFault resolve_fault(const FaultDescriptor& fault, const nlohmann::json& fault_options,
                            const OptionContext& context);

/// The fault of `faults` called `kind`, or nullptr.
const ResolvedFault* find_resolved_fault(const std::vector<ResolvedFault>& faults, const std::string& kind);

/// One fault per kind in `kinds`, each given fault_options_for it.
/// Throws std::invalid_argument naming a kind that is unknown or cannot run
/// here (e.g. a partition without namespaces).
std::map<std::string, std::unique_ptr<Fault>> make_faults(const std::vector<std::string>& kinds,
                                                          const FaultTargets& targets,
                                                          const nlohmann::json& fault_options,
                                                          const OptionContext& context);

/// One fault per fault_instance_key among `schedule`'s events, keyed by it,
/// each made by its kind's descriptor among `faults` (the run's, resolved
/// once): with the options resolved there, or, for an event whose own
/// options change them, with its stored options updated with the event's,
/// resolved against `context`. Throws as make_faults does (an event whose
/// kind is not among `faults` is unknown).
std::map<std::string, std::unique_ptr<Fault>> make_schedule_faults(const std::vector<FaultEvent>& schedule,
                                                                   const FaultTargets& targets,
                                                                   const std::vector<ResolvedFault>& faults,
                                                                   const OptionContext& context);

}  // namespace lockcheck
