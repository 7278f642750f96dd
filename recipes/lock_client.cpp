#include "recipes/lock_client.hpp"

#include "core/capabilities.hpp"

namespace lockcheck {
namespace {

LockRequest lock_request(const WorkerRequest& request) {
    return {request.key, request.owner.value_or(""), request.ttl_ms.value_or(0)};
}

}  // namespace

LockResult LockClient::invoke(const WorkerRequest& request) {
    return dispatch(request, {{fn::kAcquire,
                               [this](const WorkerRequest& r) {
                                   LockResult granted = acquire(lock_request(r));
                                   holds_.granted(r.owner.value_or(""), granted);
                                   return granted;
                               }},
                              {fn::kRelease,
                               [this](const WorkerRequest& r) {
                                   holds_.released(r.owner.value_or(""));
                                   return release(lock_request(r));
                               }},
                              {fn::kHold, [this](const WorkerRequest& r) { return holds_.hold(r.owner.value_or(""), r.value); }},
                              {fn::kRenew, [this](const WorkerRequest& r) { return renew(lock_request(r)); }},
                              {fn::kRead,
                               [this](const WorkerRequest& r) {
                                   // A checkpoint unless the worker owns the resource: answering at all is the point.
                                   return owns_resource() ? read(lock_request(r)) : LockResult::ok();
                               }},
                              {fn::kWrite, [this](const WorkerRequest& r) {
                                   if (!owns_resource()) return LockResult::ok();
                                   if (!r.value.is_number_integer())
                                       return LockResult::fail("write needs an integer value");
                                   return write(lock_request(r), r.value.get<std::int64_t>());
                               }}});
}

std::vector<std::string> LockClient::capabilities() const {
    std::vector<std::string> extra{std::string(capability::kHold)};
    if (owns_resource()) extra.emplace_back(capability::kResource);
    if (!has_lease()) extra.emplace_back(capability::kNoLease);
    return extra;
}

}  // namespace lockcheck
