// Generates realistic lock histories for benchmarks and for other tools
// (save with core's write_history as history.jsonl).
//
// A discrete-event simulation of `clients` sequential workers sharing `keys`
// locks held by a truthful lock service. Each worker loops: acquire a random
// key with a fresh owner; when granted, read the key's register, write it back
// plus one (passing the fencing token), release; when refused ("held"), back
// off and retry. Every op takes effect at a moment inside its window. A share
// `info` of acquires and releases completes as info: such an acquire never
// reached the service (no effect), such a release took effect but its answer
// was lost - so the history stays linearizable. A nemesis start/stop pair
// (no real effect) is recorded every 20,000 ops for the liveness figures.
//
// With `plant_violation`, once half the ops are written the service grants
// one acquire while another worker holds that key (a double grant); the
// earlier holder's release then fails "not-owner".
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/history.hpp"

namespace lockcheck::bench {

struct GeneratorOptions {
    std::size_t ops = 100'000;  ///< op records to generate (the last sessions finish, so a few more)
    int clients = 10;
    int keys = 1;
    double info = 0.0;  ///< share of acquires and releases that complete as info
    bool plant_violation = false;
    std::uint64_t seed = 1;
};

History generate_history(const GeneratorOptions& options);

/// The mutual-exclusion checker's worst case (an adversarial history): one
/// key, `holders` workers each granted it (lease 1000 ms) before any of them
/// releases, then releasing in turn: holders * (holders - 1) / 2 overlapping
/// pairs, the first ones within the lease, the rest after it expired.
History generate_overlapping_holders(int holders);

/// Many locks open at once (issue 33's "50k open locks"): one key, `open`
/// workers each granted it (lease 1000 ms, 100 us apart) that never release,
/// then `closed` more workers, one after another, each granted it and
/// releasing it 50 us later. Every pair overlaps: open * (open - 1) / 2 +
/// closed * open pairs, nearly all after the lease expired.
History generate_open_locks(int open, int closed);

}  // namespace lockcheck::bench
