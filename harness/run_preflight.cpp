#include "harness/run_preflight.hpp"

#include <stdexcept>

#include "nemesis/fault_registry.hpp"

namespace lockcheck {

NetworkMode preflight_network(const Spec& spec) {
    NetworkMode mode = NetworkMode::Auto;
    try {
        mode = network_mode_from_string(spec.network);
    } catch (const std::invalid_argument& e) {
        throw SpecError(std::string("field 'network' ") + e.what());
    }
    const bool namespaces = mode != NetworkMode::Loopback && can_use_namespaces();
    if (mode == NetworkMode::Namespaces && !namespaces)
        throw SpecError(
            "field 'network' is netns, which needs root and iproute2; run as root or use --network loopback");
    for (const auto& kind : spec.nemesis)
        if (const FaultDescriptor* fault = find_fault(kind); fault && fault->needs_namespaces && !namespaces)
            throw SpecError("field 'nemesis': fault '" + kind + "' needs network namespaces, which this run " +
                            (mode == NetworkMode::Loopback ? "was told not to use (network loopback)"
                                                           : "cannot create (run as root)"));
    return namespaces ? NetworkMode::Namespaces : NetworkMode::Loopback;
}

}  // namespace lockcheck
