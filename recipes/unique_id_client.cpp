#include "recipes/unique_id_client.hpp"

namespace lockcheck {

LockResult UniqueIdClient::invoke(const WorkerRequest& request) {
    return dispatch(request, {{fn::kGenerateId, [this](const WorkerRequest& r) { return generate_id(r.key); }}});
}

LockResult generated_id(std::int64_t id) {
    LockResult result = LockResult::ok();
    result.value = {{"id", id}};
    return result;
}

}  // namespace lockcheck
