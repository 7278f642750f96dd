#include "checkers/checker_registry.hpp"

#include "checkers/expired_grant.hpp"
#include "checkers/linearizability.hpp"
#include "checkers/liveness.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/oversell.hpp"
#include "checkers/release_ownership.hpp"
#include "checkers/renew_after_loss.hpp"
#include "checkers/resource.hpp"
#include "checkers/unique_ids.hpp"

namespace lockcheck {

const std::vector<const CheckerDescriptor*>& checker_descriptors() {
    // The order of the report: the lock checkers lead a lock history's, oversell a stock history's,
    // unique-ids an id history's.
    static const std::vector<const CheckerDescriptor*> all{
        &mutual_exclusion_checker(), &resource_checker(), &linearizability_checker(),   &oversell_checker(),
        &unique_ids_checker(),       &liveness_checker(), &release_ownership_checker(), &renew_after_loss_checker(),
        &expired_grant_checker(),
    };
    return all;
}

const CheckerDescriptor* find_checker_descriptor(std::string_view name) {
    for (const CheckerDescriptor* checker : checker_descriptors())
        if (checker->name == name) return checker;
    return nullptr;
}

}  // namespace lockcheck
