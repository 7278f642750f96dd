// Recipe "zk-sequential": Curator's InterProcessMutex recipe
// (docs/recipes/zk-sequential.md).
//
// acquire: create an EPHEMERAL|SEQUENCE child /lockcheck/<key>/lock-NNNNNNNNNN
//          holding the owner; list the children: the lowest sequence holds
//          the lock. Otherwise watch only the next lower child (no herd) and
//          wait for it to go, then look again; after the call timeout
//          (server_timeout_ms) in all, delete our child and fail "held".
//          Token: our child's czxid (children are granted in creation order,
//          so tokens grow in grant order).
// release: delete our child (fail "not-owner" when it is gone: our session
//          expired and the server removed it).
// The session is the lease (recipes/zk_lease.hpp).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/recipe_descriptor.hpp"
#include "recipes/zk_lease.hpp"

namespace lockcheck {

class ZkSequential : public LockClient {
public:
    ZkSequential(const std::vector<std::string>& endpoints, std::chrono::milliseconds timeout,
                 std::optional<std::int64_t> session_timeout_ms);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;

private:
    ZkLease lease_;
    std::map<std::string, std::string> children_;  ///< owner -> our child's path, while held

    /// Deletes our child `path` after waiting failed; fail "held" when it is
    /// certainly gone, info when that is unknown.
    LockResult give_up(const std::string& path, const std::string& why);
};

/// The children sorted by their sequence suffix (the last 10 digits).
std::vector<std::string> zk_sorted_by_sequence(std::vector<std::string> children);

/// The descriptor of this recipe (recipes/zk_sequential_descriptor.cpp).
RecipeDescriptor zk_sequential_recipe();

}  // namespace lockcheck
