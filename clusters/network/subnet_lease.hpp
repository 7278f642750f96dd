// A subnet slot held by this run, so two runs on one machine never collide.
//
// Slot N means the test subnet 10.77.N.0/24 (namespace mode) or 127.77.N.0/24
// (loopback mode). A slot is held by a FileLock on
// STATE_DIR/subnet-N.lock (host/state_directory.hpp); a crashed run never
// blocks its slot.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "host/file_lock.hpp"

namespace lockcheck {

class SubnetLease {
public:
    /// Takes the first free slot from a start derived from `run_id`, skipping
    /// slots whose address is still configured on an interface.
    /// Throws std::runtime_error when all slots are taken.
    explicit SubnetLease(const std::string& run_id);

    int slot() const { return slot_; }

private:
    int slot_ = 0;
    std::optional<FileLock> lock_;
};

}  // namespace lockcheck
