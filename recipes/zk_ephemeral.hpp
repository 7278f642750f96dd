// Recipe "zk-ephemeral": one ephemeral node per lock (docs/recipes/zk-ephemeral.md).
//
// acquire: create the EPHEMERAL node /lockcheck/<key> holding the owner. If
//          it exists, watch it (exists + watch) and wait, at most the call
//          timeout (server_timeout_ms), for its deletion, then try once more;
//          still there: fail "held". Token: the node's czxid (the zxid of the
//          transaction that created it: every later creation has a larger one).
// release: delete the node only if its ephemeralOwner is our session and its
//          data our owner (delete at the version read), else fail "not-owner".
// The session is the lease (recipes/zk_lease.hpp). Promise: mutual
// exclusion while the holder's session lives; a holder paused past its
// session timeout loses the node but does not know it until it runs again.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/zk_lease.hpp"

namespace lockcheck {

class ZkEphemeral : public LockClient {
public:
    ZkEphemeral(const std::vector<std::string>& endpoints, std::chrono::milliseconds timeout,
                std::optional<std::int64_t> session_timeout_ms);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;

private:
    ZkLease lease_;
};

/// The descriptor of this recipe (recipes/zk_ephemeral_descriptor.cpp).
RecipeDescriptor zk_ephemeral_recipe();

}  // namespace lockcheck
