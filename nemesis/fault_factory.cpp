#include "nemesis/fault_factory.hpp"

#include <stdexcept>

#include "nemesis/fault_registry.hpp"

namespace lockcheck {

nlohmann::json fault_options_for(const FaultDescriptor& fault, const nlohmann::json& fault_options,
                                 const OptionContext& context) {
    return resolve_options(fault.options, fault_options, context);
}

nlohmann::json options_of_fault(const std::string& kind, const nlohmann::json& fault_options) {
    nlohmann::json options = nlohmann::json::object();
    if (const FaultDescriptor* fault = find_fault(kind))
        for (const auto& option : fault->options)
            if (const auto it = fault_options.find(option.name); it != fault_options.end()) options[option.name] = *it;
    return options;
}

namespace {

std::unique_ptr<Fault> make_fault(const std::string& kind, const FaultTargets& targets,
                                  const nlohmann::json& fault_options, const OptionContext& context) {
    const FaultDescriptor* descriptor = find_fault(kind);
    if (!descriptor) throw std::invalid_argument("unknown fault '" + kind + "'");
    auto fault = descriptor->make(targets, fault_options_for(*descriptor, fault_options, context));
    if (auto reason = fault->unavailable_reason())
        throw std::invalid_argument("fault '" + kind + "' is unavailable here: " + *reason);
    return fault;
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
                                                                   const nlohmann::json& fault_options,
                                                                   const OptionContext& context) {
    std::map<std::string, std::unique_ptr<Fault>> faults;
    for (const auto& event : schedule) {
        const auto key = fault_instance_key(event);
        if (faults.count(key)) continue;
        nlohmann::json options = fault_options;
        if (event.options.is_object()) options.update(event.options);
        faults[key] = make_fault(event.kind, targets, options, context);
    }
    return faults;
}

}  // namespace lockcheck
