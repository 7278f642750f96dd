// Per-process clock state for the clock faults, through the project's own
// LD_PRELOAD clock library (clusters/clockshift/): a node or worker started
// with clock_environment() reads its clocks as the state in its clock file
// says (clusters/clockshift/clock_record.h: per clock group an offset and a
// rate), re-read on every call, so the state moves while the process runs.
// The file lives in the node's directory, so a restarted node keeps its state.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clusters/clockshift/clock_record.h"

namespace lockcheck {

using ClockState = lc_clock_state;
using ClockLine = lc_clock_line;

/// The clock file of the node (or worker) whose directory is `node_dir`.
std::filesystem::path clock_offset_file(const std::filesystem::path& node_dir);

/// LD_PRELOAD=`library` and LOCKCHECK_CLOCK_OFFSET_FILE=its clock file, and
/// writes the state that moves nothing there.
std::vector<std::string> clock_environment(const std::filesystem::path& library, const std::filesystem::path& node_dir);

/// The same when `library` is set (TopologyOptions::clock_library: the run
/// has a clock fault); no environment otherwise.
std::vector<std::string> clock_environment(const std::optional<std::filesystem::path>& library,
                                           const std::filesystem::path& node_dir);

/// What a clock file holding `state` contains: a record of fixed width
/// (LC_CLOCK_RECORD_SIZE bytes), so rewriting it in place with one write
/// (NodeRuntime::rewrite_in_place) replaces the whole record.
std::string clock_state_text(const ClockState& state);

/// The state a clock file's `text` holds; nullopt when it holds none.
std::optional<ClockState> clock_state_of(const std::string& text);

/// Rewrites the clock file of the process whose directory is `node_dir` on
/// this host in place. Throws NodeRuntimeError when it cannot be written.
/// (The clock-skew fault goes through Node::rewrite_in_place, which reaches
/// the file where the server runs.)
void write_clock_state(const std::filesystem::path& node_dir, const ClockState& state);

/// This host's real wall clock in ns since the epoch: what the anchors of a
/// state are measured on.
std::int64_t real_wall_clock_ns();

/// The clock library of `executable` (the lockcheck binary):
/// `libclockshift.so` beside it or in ../lib/lockcheck/ (find_helper);
/// empty when there is none.
std::filesystem::path find_clock_library(const std::filesystem::path& executable);

/// The clock launcher installed beside the clock library `library`
/// (lockcheck-clock-launch, clusters/clockshift/static_launcher/launcher.c):
/// `launcher -- PROGRAM ARGS...` becomes PROGRAM in the same process and,
/// when PROGRAM is statically linked (LD_PRELOAD never reaches it), patches
/// its vDSO so that its clocks move by its clock file as the library moves
/// a dynamically linked program's. A server started with
/// clock_environment() runs behind it (NodeProgram::launcher).
std::filesystem::path clock_launcher_beside(const std::filesystem::path& library);

}  // namespace lockcheck
