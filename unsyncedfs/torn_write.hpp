// How a power loss tears the unsynced writes of a file (fault `torn-write`,
// docs/nemesis.md, "The lose-unsynced filesystem"): which part of what was
// written since the file's last sync persists. Pure and seeded: the same
// seed and the same writes always tear the same way.
//
//   none               nothing unsynced persists (a plain power loss)
//   last-write-prefix  every write before the file's last one persists, and
//                      of the last write only its first torn_prefix_length()
//                      bytes: the disk wrote in order and lost power in the
//                      middle of the last write
//   sectors            each 4 KiB sector a write changed since the sync keeps
//                      its new bytes or its durable bytes, independently, by
//                      sector_survives(): a disk that reorders its writes
//
// The control channel names a tear as "torn=MODE seed=N" after "power-loss".
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lockcheck::unsyncedfs {

enum class TearMode { None, LastWritePrefix, Sectors };

struct Tear {
    TearMode mode = TearMode::None;
    std::uint64_t seed = 0;
};

/// "none", "last-write-prefix" or "sectors"; nullopt for anything else.
std::optional<TearMode> tear_mode_from_string(const std::string& text);
std::string to_string(TearMode mode);

/// The tear the words after "power-loss" name ("" or "torn=MODE seed=N"),
/// or nullopt when they do not read.
std::optional<Tear> tear_from_arguments(const std::string& arguments);
/// The words tear_from_arguments reads back ("" for TearMode::None).
std::string tear_arguments(const Tear& tear);

/// How many leading bytes of a torn write of `length` bytes at `offset`
/// persist: at least 1 and fewer than `length` (0 when `length` < 2).
std::size_t torn_prefix_length(std::uint64_t seed, off_t offset, std::size_t length);

/// Whether the 4 KiB sector `sector` (its index in the file) keeps the bytes
/// written since the sync: true for about half the sectors of a seed.
bool sector_survives(std::uint64_t seed, off_t sector);

}  // namespace lockcheck::unsyncedfs
