#include "workers/lock_workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/capabilities.hpp"
#include "core/interruptible_sleep.hpp"
#include "workers/slot_random.hpp"

namespace lockcheck {
namespace {

Op lock_op(std::string_view f, const std::string& key, const std::string& owner) {
    Op op;
    op.f = std::string(f);
    op.key = key;
    op.owner = owner;
    return op;
}

Op lease_op(std::string_view f, const std::string& key, const std::string& owner, std::int64_t ttl_ms) {
    Op op = lock_op(f, key, owner);
    op.ttl_ms = ttl_ms;
    return op;
}

/// An acquire asking for a lease of `ttl_ms`; without one (ttl_ms not
/// recorded) when the worker's locks have no lease ("no-lease").
Op acquire_op(const SlotSession& session, const std::string& key, const std::string& owner, std::int64_t ttl_ms) {
    return session.supports(capability::kNoLease) ? lock_op(fn::kAcquire, key, owner)
                                                  : lease_op(fn::kAcquire, key, owner, ttl_ms);
}

/// The hold timed by the worker on its own clock (spec hold_timed_by
/// "client"): op hold with the duration; ok when the work was done, fail
/// "validity-ended" when the client saw its lock's validity run out first
/// (the critical section then ends unwritten, as after a lost renew).
/// Returns whether the lock is still believed held.
bool hold_on_worker_clock(SlotSession& session, const std::string& key, const std::string& owner,
                          std::chrono::milliseconds duration) {
    const int process = session.process();
    Op work = lock_op(fn::kHold, key, owner);
    work.value = duration.count();
    const Op worked = session.perform(work);
    return session.process() == process && worked.type == OpType::Ok;
}

/// Holds for `duration`, or until a stop is requested. When the worker
/// supports "renew" (a watchdog), sends a renew through it every ttl/3 while
/// holding: the renewal runs in the worker process, so a paused worker renews
/// nothing. A renew not answered ok (refused: the lock is lost; or unknown)
/// ends the hold at once, as an application that learns it may have lost its
/// lock stops using what it protects. Returns whether the lock is still
/// believed held: false after such a renew, or when the worker was lost.
/// `live` knows each renew in flight.
bool hold(SlotSession& session, LiveState& live, const std::string& key, const std::string& owner,
          std::int64_t ttl_ms, std::chrono::milliseconds duration, const std::stop_token& stop) {
    if (!session.supports(capability::kRenew)) {
        interruptible_sleep_for(stop, duration);
        return true;
    }
    const int process = session.process();
    const auto until = std::chrono::steady_clock::now() + duration;
    const auto every = std::chrono::milliseconds(std::max<std::int64_t>(1, ttl_ms / 3));
    for (auto now = std::chrono::steady_clock::now(); now < until; now = std::chrono::steady_clock::now()) {
        if (!interruptible_sleep_until(stop, std::min(now + every, until))) return true;
        if (std::chrono::steady_clock::now() >= until) break;
        live.renewing(process);  // a pause aimed at a renew in flight strikes from here (nemesis/pause_client.hpp)
        const Op renewed = session.perform(lease_op(fn::kRenew, key, owner, ttl_ms));
        live.renew_done(process);
        if (session.process() != process || renewed.type != OpType::Ok) return false;
    }
    return true;
}

Op resource_op(std::string_view f, const std::string& key, std::optional<std::int64_t> token, bool worker_owned) {
    Op op;
    op.f = std::string(f);
    op.key = key;
    op.token = token;
    if (worker_owned) op.resource = std::string(resource_owner::kWorker);
    return op;
}

/// The holder's read: through the worker as a checkpoint applied to the
/// controller's register, or - capability "resource" - performed by the
/// worker itself and recorded with resource "worker".
Op read_resource(SlotSession& session, ProtectedResource& resource, const std::string& key,
                 std::optional<std::int64_t> token) {
    // Capability "resource": the worker reads in the lock's transaction and reports the value.
    if (session.supports(capability::kResource)) return session.perform(resource_op(fn::kRead, key, token, true));
    return session.perform(resource_op(fn::kRead, key, token, false), [&](Op& op) {
        const auto access = resource.read(key, op.token);
        op.type = access.accepted ? OpType::Ok : OpType::Fail;
        if (access.accepted)
            op.value = access.value;
        else
            op.error = std::string(err::kFenced);
    });
}

/// The holder's write of `value`, the same two ways as read_resource.
void write_resource(SlotSession& session, ProtectedResource& resource, const std::string& key,
                    std::optional<std::int64_t> token, std::int64_t value) {
    const bool worker_owned = session.supports(capability::kResource);
    Op write = resource_op(fn::kWrite, key, token, worker_owned);
    write.value = value;
    if (worker_owned) {  // the worker writes (and commits); its answer is the outcome
        session.perform(write);
        return;
    }
    session.perform(write, [&](Op& op) {
        const auto access = resource.write(key, value, op.token);
        op.type = access.accepted ? OpType::Ok : OpType::Fail;
        op.value = value;
        if (!access.accepted) op.error = std::string(err::kFenced);
    });
}

void run_lock_cycles(SlotSession& session, const WorkloadContext& context, int slot, const std::stop_token& stop) {
    const WorkloadOptions& options = context.options;
    LiveState& live = context.live;
    SlotRandom random(options.seed, slot);
    std::int64_t attempt = 0;
    if (options.client_times_holds && !session.supports(capability::kHold))
        throw std::runtime_error("spec hold_timed_by client: the workers do not announce capability \"hold\"");

    while (!stop.stop_requested() && !context.recorder.full()) {
        const std::string& key = random.pick(options.keys);
        const int process = session.process();
        const std::string owner = fmt::format("w{}-{}", process, ++attempt);

        live.acquiring(process, key);
        const Op acquired = session.perform(acquire_op(session, key, owner, options.ttl_ms));
        live.acquire_done(process);
        if (acquired.type != OpType::Ok) {
            interruptible_sleep_for(stop, random.between(5, 30));  // busy or unknown: back off, try with a new owner
            continue;
        }
        live.acquired(process, key);
        // A re-entrant lock is entered again by its holder, with the same owner id:
        // re-entry is by owner identity (docs/recipes/redis-reentrant-hash.md).
        int entered = 1;
        if (session.supports(capability::kReentrant)) {
            const Op again = session.perform(acquire_op(session, key, owner, options.ttl_ms));
            if (again.type == OpType::Ok) {
                ++entered;
                live.acquired(process, key);
            }
        }

        // The critical section: read, hold, write back read + 1, each with the token.
        const Op was = read_resource(session, context.resource, key, acquired.token);
        if (was.type == OpType::Ok && session.process() == process) {
            if (!was.value.is_number_integer())
                throw std::runtime_error("worker answered read ok without an integer value");
            // A renew that says the lock is lost ends the critical section unwritten.
            const auto duration = random.within(options.hold_ms);
            const bool still_held = options.client_times_holds
                                        ? hold_on_worker_clock(session, key, owner, duration)
                                        : hold(session, live, key, owner, options.ttl_ms, duration, stop);
            if (still_held)
                write_resource(session, context.resource, key, acquired.token, was.value.get<std::int64_t>() + 1);
        }
        // The worker was replaced: it holds nothing we can release. Its lock
        // stays behind until its lease runs out (or forever, without one).
        for (; entered > 0 && session.process() == process; --entered) {
            live.releasing(process, key);
            session.perform(lock_op(fn::kRelease, key, owner));
        }
        interruptible_sleep_for(stop, random.within(options.think_ms));
    }
}

}  // namespace

const WorkloadDescriptor& lock_workload() {
    static const WorkloadDescriptor descriptor{
        "lock", "acquire, read the protected resource, hold, write it back incremented, release", "", run_lock_cycles};
    return descriptor;
}

}  // namespace lockcheck
