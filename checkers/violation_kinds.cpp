#include "checkers/violation_kinds.hpp"

#include <algorithm>
#include <array>

#include "checkers/liveness.hpp"
#include "checkers/lock_verdict.hpp"
#include "checkers/mutual_exclusion.hpp"
#include "checkers/oversell.hpp"
#include "checkers/release_ownership.hpp"
#include "checkers/resource.hpp"
#include "checkers/unique_ids.hpp"

namespace lockcheck {

std::span<const std::string_view> violation_kinds() {
    // The one list: add a checker's new kind here (its constant stays in the checker's header).
    static constexpr auto kinds = std::to_array<std::string_view>({
        kOverlapWithinLease, kOverlapLeaseExpired, kLateGrant, kOverlapLeaseUncertain,  // mutual-exclusion
        kGrantWithoutOwnKey, kRenewAfterExpiry,                                         // with the servers' record
        kRenewAfterLoss,                                                                // renew-after-loss
        kExpiredGrant,                                                                  // expired-grant
        kLostUpdate, kStaleWriteAccepted,                                     // resource
        kDoubleGrant, kBusyWhileFree, kReleaseWithoutHold, kNotLinearizable,  // linearizability
        kOversell, kStockMismatch,                                            // oversell
        kDuplicateId,                                                         // unique-ids
        kStuckLock, kNodeNotRestarted,                                        // liveness
        kReleaseByNonOwner,                                                   // release-ownership
    });
    return kinds;
}

bool is_violation_kind(std::string_view kind) {
    const auto kinds = violation_kinds();
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

}  // namespace lockcheck
