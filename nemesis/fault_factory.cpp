#include "nemesis/fault_factory.hpp"

#include <stdexcept>

#include "nemesis/fault_registry.hpp"

namespace lockcheck {

nlohmann::json fault_options_for(const FaultDescriptor& fault, const nlohmann::json& fault_options,
                                 const OptionContext& context) {
    return resolve_options(fault.options, fault_options, context);
}

std::map<std::string, std::unique_ptr<Fault>> make_faults(const std::vector<std::string>& kinds,
                                                          const FaultTargets& targets,
                                                          const nlohmann::json& fault_options,
                                                          const OptionContext& context) {
    std::map<std::string, std::unique_ptr<Fault>> faults;
    for (const auto& kind : kinds) {
        const FaultDescriptor* descriptor = find_fault(kind);
        if (!descriptor) throw std::invalid_argument("unknown fault '" + kind + "'");
        auto fault = descriptor->make(targets, fault_options_for(*descriptor, fault_options, context));
        if (auto reason = fault->unavailable_reason())
            throw std::invalid_argument("fault '" + kind + "' is unavailable here: " + *reason);
        faults[kind] = std::move(fault);
    }
    return faults;
}

}  // namespace lockcheck
