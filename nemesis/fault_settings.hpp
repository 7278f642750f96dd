// Spec values that shape the faults of one run (docs/spec.md), resolved.
#pragma once

#include <cstdint>
#include <string>

namespace lockcheck {

struct FaultSettings {
    std::int64_t restart_delay_ms = 0;           ///< kill-restart: downtime of a killed node
    std::string partition_mode = "isolate-one";  ///< partition: isolate-one | isolate-primary | majority-minority
    double packet_loss = 0.3;                    ///< packet-loss: probability each packet is dropped
    std::int64_t clock_skew_ms = 0;              ///< clock-skew: offset applied to the target nodes
    int clock_skew_nodes = 1;                    ///< clock-skew: how many nodes jump
};

}  // namespace lockcheck
