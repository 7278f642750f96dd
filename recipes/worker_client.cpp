#include "recipes/worker_client.hpp"

namespace lockcheck {

LockResult dispatch(const WorkerRequest& request, std::initializer_list<OpHandler> handlers) {
    for (const auto& handler : handlers)
        if (handler.f == request.f) return handler.perform(request);
    return LockResult::fail("unsupported op '" + request.f + "'");
}

}  // namespace lockcheck
