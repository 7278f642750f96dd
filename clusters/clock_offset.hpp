// Per-node clock offsets for the clock-skew fault, through the project's own
// LD_PRELOAD library (clusters/clockshift/clockshift.c): a node started with
// clock_environment() reads its wall clock as real time + the offset in its
// offset file, re-read on every call, so the offset moves while it runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lockcheck {

/// The offset file of the node whose directory is `node_dir`.
std::filesystem::path clock_offset_file(const std::filesystem::path& node_dir);

/// LD_PRELOAD=`library` and LOCKCHECK_CLOCK_OFFSET_FILE=its offset file, and
/// writes an offset of 0 there.
std::vector<std::string> clock_environment(const std::filesystem::path& library, const std::filesystem::path& node_dir);

/// The same when `library` is set (TopologyOptions::clock_library: the run
/// has a clock-skew fault); no environment otherwise.
std::vector<std::string> clock_environment(const std::optional<std::filesystem::path>& library,
                                           const std::filesystem::path& node_dir);

/// What an offset file holding `offset_ms` (ms, may be negative) contains:
/// the number padded with spaces to a fixed width (24 bytes), so rewriting
/// it in place with one write (NodeRuntime::rewrite_in_place) never leaves a
/// shorter number followed by stale digits for the library's pread.
std::string clock_offset_text(std::int64_t offset_ms);

/// Rewrites the offset file of the node whose directory is `node_dir` on this
/// host in place. Throws std::runtime_error when it cannot be written. (The
/// clock-skew fault goes through Node::rewrite_in_place, which reaches the
/// file where the server runs.)
void write_clock_offset(const std::filesystem::path& node_dir, std::int64_t offset_ms);

/// The clock library of `executable` (the lockcheck binary):
/// `libclockshift.so` beside it or in ../lib/lockcheck/ (find_helper);
/// empty when there is none.
std::filesystem::path find_clock_library(const std::filesystem::path& executable);

}  // namespace lockcheck
