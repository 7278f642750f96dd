// The unique-id workload (selected by capability "unique-ids"): not a lock.
// Each slot repeats generate-id on a random key with a think time between,
// until the run stops or the history is full. No hold, no protected resource,
// no final read: every id is in the completion that handed it out, and the
// unique-ids checker (checkers/unique_ids.hpp) judges them. Any fault may run
// alongside: the loop only asks for ids, whatever the servers go through.
#pragma once

#include "workers/workload.hpp"

namespace lockcheck {

const WorkloadDescriptor& unique_ids_workload();

}  // namespace lockcheck
