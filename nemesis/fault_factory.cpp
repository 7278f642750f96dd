#include "nemesis/fault_factory.hpp"

#include <stdexcept>

#include "nemesis/fault_registry.hpp"

namespace lockcheck {

nlohmann::json fault_options_for(const FaultDescriptor& fault, const nlohmann::json& fault_options,
                                 const OptionContext& context) {
    return resolve_options(fault.options, fault_options, context);
}

nlohmann::json stored_options_of(const FaultDescriptor& fault, const nlohmann::json& fault_options) {
    nlohmann::json options = nlohmann::json::object();
    for (const auto& option : fault.options)
        if (const auto it = fault_options.find(option.name); it != fault_options.end()) options[option.name] = *it;
    return options;
}

nlohmann::json options_of_fault(const std::string& kind, const nlohmann::json& fault_options) {
    const FaultDescriptor* fault = find_fault(kind);
    return fault ? stored_options_of(*fault, fault_options) : nlohmann::json::object();
}

ResolvedFault resolve_fault(const FaultDescriptor& fault, const nlohmann::json& fault_options,
                            const OptionContext& context) {
    return {&fault, stored_options_of(fault, fault_options), fault_options_for(fault, fault_options, context)};
}

const ResolvedFault* find_resolved_fault(const std::vector<ResolvedFault>& faults, const std::string& kind) {
    for (const auto& fault : faults)
        if (fault.descriptor->name == kind) return &fault;
    return nullptr;
}

namespace {

/// The fault `descriptor` makes with `options` (resolved); throws
/// std::invalid_argument when it cannot act here.
std::unique_ptr<Fault> make_available_fault(const FaultDescriptor& descriptor, const FaultTargets& targets,
                                            const nlohmann::json& options) {
    auto fault = descriptor.make(targets, options);
    if (auto reason = fault->unavailable_reason())
        throw std::invalid_argument("fault '" + descriptor.name + "' is unavailable here: " + *reason);
    return fault;
}

std::unique_ptr<Fault> make_fault(const std::string& kind, const FaultTargets& targets,
                                  const nlohmann::json& fault_options, const OptionContext& context) {
    const FaultDescriptor* descriptor = find_fault(kind);
    if (!descriptor) throw std::invalid_argument("unknown fault '" + kind + "'");
    return make_available_fault(*descriptor, targets, fault_options_for(*descriptor, fault_options, context));
}

/// The fault of `event`, from its kind's resolved fault: with the options
/// resolved there unless the event's own options change them.
std::unique_ptr<Fault> make_event_fault(const FaultEvent& event, const FaultTargets& targets,
                                        const std::vector<ResolvedFault>& faults, const OptionContext& context) {
    const ResolvedFault* resolved = find_resolved_fault(faults, event.kind);
    if (!resolved) throw std::invalid_argument("unknown fault '" + event.kind + "'");
    nlohmann::json stored = resolved->stored_options;
    if (event.options.is_object()) stored.update(event.options);
    if (stored == resolved->stored_options)
        return make_available_fault(*resolved->descriptor, targets, resolved->options);
    return make_available_fault(*resolved->descriptor, targets,
                                fault_options_for(*resolved->descriptor, stored, context));
}

}  // namespace

std::map<std::string, std::unique_ptr<Fault>> make_faults(const std::vector<std::string>& kinds,
                                                          const FaultTargets& targets,
                                                          const nlohmann::json& fault_options,
                                                          const OptionContext& context) {
    std::map<std::string, std::unique_ptr<Fault>> faults;
    for (const auto& kind : kinds) faults[kind] = make_fault(kind, targets, fault_options, context);
    return faults;
}

std::map<std::string, std::unique_ptr<Fault>> make_schedule_faults(const std::vector<FaultEvent>& schedule,
                                                                   const FaultTargets& targets,
                                                                   const std::vector<ResolvedFault>& faults,
                                                                   const OptionContext& context) {
    std::map<std::string, std::unique_ptr<Fault>> made;
    for (const auto& event : schedule) {
        const auto key = fault_instance_key(event);
        if (!made.count(key)) made[key] = make_event_fault(event, targets, faults, context);
    }
    return made;
}

}  // namespace lockcheck
