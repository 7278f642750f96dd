// The UniqueIdClient family: an id generator, not a lock (capability
// "unique-ids", docs/protocol.md; driven by workers/unique_ids_workload.hpp,
// judged by checkers/unique_ids.hpp). invoke() dispatches generate-id to the
// method below; every other op fails "unsupported op '<f>'".
#pragma once

#include <cstdint>
#include <string>

#include "recipes/worker_client.hpp"

namespace lockcheck {

class UniqueIdClient : public WorkerClient {
public:
    /// generate-id goes to generate_id(), with the request's key.
    LockResult invoke(const WorkerRequest& request) final;

    /// Hands out a new id of `key`'s sequence: ok with value {"id": N}
    /// (generated_id(N)) only when the id is certainly issued; fail when
    /// certainly none was; info when one may have been.
    virtual LockResult generate_id(const std::string& key) = 0;
};

/// LockResult::ok carrying {"id": id}, the answer of a generate-id that issued `id`.
LockResult generated_id(std::int64_t id);

}  // namespace lockcheck
