// Fault "corrupt-file": a disk that lies about one data file. It SIGKILLs a
// node the holder's lock is on (picked as kill-restart picks it, and with
// kill-restart's kill_restart_nodes N, N nodes of that lock at once:
// nemesis/kill_restart.hpp), damages one of each node's data files while
// they are down, and starts them again restart_delay_ms later
// (nemesis/delayed_restart.hpp).
// The event's duration is the restart delay: stop-fault marks the restart.
//
// Which file (spec field corrupt_file): a name from the server's own list
// (clusters/servers/server_data_files.hpp), "log" for its write-ahead log;
// of several matching files the newest. What is done to it (corrupt_action,
// clusters/file_damage.hpp):
//   cut-records  cut the last corrupt_records whole records off (and a torn
//                tail): acknowledged writes lost at a record boundary, which
//                no format can detect (files whose records lockcheck can
//                read: Redis's AOF);
//   cut-bytes    cut the last corrupt_bytes bytes off;
//   zero         write zeros over corrupt_bytes bytes ending
//                corrupt_end_offset bytes before the end;
//   flip-bits    flip corrupt_bits bits in that range, at positions the
//                event's pick chooses;
//   older-copy   copy the file, let the server run corrupt_copy_age_ms
//                more, then kill it and put the copy back: a disk that
//                acknowledged writes it never kept.
// The start-fault record's targets name each node, followed by its file and
// what was done ("n1", "aof-incr appendonly.aof.1.incr.aof: cut 60 bytes
// (1 record) off the end: 14663 -> 14603 bytes", then the next node's two
// entries); flip-bits chooses each node's bits with the event's pick plus
// the node's place among them. A file that is missing makes the event fail
// (start-fault info "fault failed: ..."), before any node is killed when it
// was missing before the kill; a node killed is restarted all the same.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "nemesis/delayed_restart.hpp"
#include "nemesis/fault.hpp"
#include "nemesis/fault_descriptor.hpp"
#include "nemesis/lock_location.hpp"

namespace lockcheck {

/// The spec fields of corrupt-file, resolved.
struct CorruptFileOptions {
    std::string file = "log";           ///< corrupt_file
    std::string action = "cut-records"; ///< corrupt_action
    std::int64_t records = 1;           ///< corrupt_records
    std::int64_t bytes = 512;           ///< corrupt_bytes
    std::int64_t end_offset = 0;        ///< corrupt_end_offset
    std::int64_t bits = 1;              ///< corrupt_bits
    std::int64_t copy_age_ms = 1000;    ///< corrupt_copy_age_ms
};

/// The entry of `files` that spec field corrupt_file's `name` stands for
/// ("log": the first), or nullptr.
const DataFile* corrupt_file_target(const std::vector<DataFile>& files, const std::string& name);

/// Does `options`' action (not older-copy) to `path`, a file of kind `kind`,
/// with `seed` choosing the flipped bits. Returns what it did in one line.
std::string damage_file(const std::filesystem::path& path, const DataFile& kind, const CorruptFileOptions& options,
                        std::uint64_t seed);

class CorruptFile : public RestartingFault {
public:
    /// `interrupt`: the run's interrupt (Ctrl-C), which ends heal()'s wait.
    /// `nodes`: kill_restart_nodes, how many of the lock's nodes one event strikes (>= 1).
    CorruptFile(LockLocator locator, CorruptFileOptions options, std::int64_t nodes, std::int64_t restart_delay_ms,
                std::stop_token interrupt)
        : RestartingFault("corrupt-file", restart_delay_ms, std::move(interrupt)),
          locator_(std::move(locator)),
          options_(std::move(options)),
          nodes_(static_cast<std::size_t>(nodes)) {}
    std::optional<std::vector<std::string>> start(const FaultEvent& event, const std::stop_token& stop) override;

private:
    LockLocator locator_;
    CorruptFileOptions options_;
    std::size_t nodes_;

    /// The file of `node` the options aim at now. Throws std::runtime_error naming the node.
    std::pair<const DataFile*, std::filesystem::path> target_file(const Node& node) const;
};

/// The descriptor of this fault (nemesis/corrupt_file_descriptor.cpp).
FaultDescriptor corrupt_file_fault();

}  // namespace lockcheck
