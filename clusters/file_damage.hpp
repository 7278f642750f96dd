// The damage corrupt-file does to one data file while its server is down
// (nemesis/corrupt_file.hpp, docs/nemesis.md "Disks that lie"), the way
// Jepsen's file nemesis does it: plain file operations on a path, each
// returning one line that says what it did ("cut 60 bytes (1 record) off
// the end: 14663 -> 14603 bytes"). Every action throws std::runtime_error
// naming the file when it cannot read or write it.
//
// A byte range is given from the end of the file: the `length` bytes that
// end `end_offset` bytes before the file's end, clipped to the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "clusters/data_file.hpp"

namespace lockcheck {

/// Where each complete record of `bytes` (in `format`) starts, in order, and
/// last where the complete records end (the start of a torn tail, or the
/// size). A RESP record is one command, or a whole MULTI ... EXEC block (a
/// block without its EXEC is torn). Empty for RecordFormat::None.
std::vector<std::uint64_t> record_boundaries(std::string_view bytes, RecordFormat format);

/// Cuts the file back to where its `count`-th last complete record starts
/// (a torn tail goes too); to empty when it holds fewer. Throws
/// std::invalid_argument for RecordFormat::None.
std::string cut_records(const std::filesystem::path& file, RecordFormat format, std::int64_t count);

/// Cuts the last `length` bytes off (all of a shorter file).
std::string cut_bytes(const std::filesystem::path& file, std::int64_t length);

/// Writes zeros over the range, leaving the size as it was.
std::string zero_range(const std::filesystem::path& file, std::int64_t end_offset, std::int64_t length);

/// Flips `bits` bits at distinct positions of the range that `seed` picks
/// (fewer when the range holds fewer). The size stays as it was.
std::string flip_bits(const std::filesystem::path& file, std::int64_t end_offset, std::int64_t length,
                      std::int64_t bits, std::uint64_t seed);

/// Puts `older` (a copy taken earlier) back in place of `file`.
std::string restore_copy(const std::filesystem::path& file, const std::filesystem::path& older);

}  // namespace lockcheck
