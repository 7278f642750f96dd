// Recipe "mysql-get-lock": MariaDB's named user locks on the worker's
// connection.
//
// acquire: SELECT GET_LOCK(key, 0): 1 ok; 0 held by another session
//          (fail "held"); NULL an error (fail).
// release: SELECT RELEASE_LOCK(key): 1 ok; 0 (another session holds it) or
//          NULL (nobody does) fail "not-owner".
// The lock belongs to the server session: it has no lease (capability
// "no-lease") and ends only with RELEASE_LOCK or the session (a killed
// client, a killed connection, a server restart). A holder whose
// connection broke has lost its lock; its release then reconnects and
// answers not-owner. GET_LOCK is not replicated: on mysql-replicated a
// promoted replica knows nothing of the locks held on the old primary.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "recipes/lock_client.hpp"
#include "recipes/mysql_connection.hpp"
#include "recipes/recipe_descriptor.hpp"

namespace lockcheck {

class MysqlGetLock : public LockClient {
public:
    MysqlGetLock(const std::vector<std::string>& endpoints, const ConnectionOptions& connection);
    LockResult acquire(const LockRequest& request) override;
    LockResult release(const LockRequest& request) override;
    bool has_lease() const override { return false; }

private:
    MysqlPrimary connection_;
};

/// The descriptor of this recipe (recipes/mysql_get_lock_descriptor.cpp).
RecipeDescriptor mysql_get_lock_recipe();

}  // namespace lockcheck
