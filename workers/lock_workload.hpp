// The lock workload (the default one: workers that announce no workload
// capability of their own). Each slot repeats:
//
//   acquire(key, fresh owner, ttl) -> ok?  read resource -> hold -> write read+1
//                                          -> release
//
// Capabilities shape the cycle: "no-lease" sends acquires without ttl_ms,
// "reentrant" enters the held lock a second time with the same owner (and
// releases once per entry), "renew" renews every ttl/3 during the hold, and
// "resource" has the worker perform read and write itself, in the lock's
// transaction, and report the values; those ops carry resource "worker" and
// the controller's register is unused.
//
// Every step is an op in the history: an invoke when the request is sent, a
// completion when the reply arrives. read and write go through the worker as
// checkpoints (a paused worker answers late) and are applied to the protected
// resource at the instant their completion is recorded, with the token the
// acquire returned. A worker that does not answer in time, or answers
// garbage, gets its op completed as info (lock ops: outcome unknown) or fail
// (resource ops: the controller never applied them) and is replaced. A stop
// ends the hold, think or back-off time in progress at once, but a cycle in
// progress still writes and releases, so holders leave cleanly.
#pragma once

#include "workers/workload.hpp"

namespace lockcheck {

const WorkloadDescriptor& lock_workload();

}  // namespace lockcheck
