// Reading a stored history.jsonl for `check` and `export`: the same reader,
// and the same note on stderr when its last record was cut off.
#pragma once

#include <filesystem>

#include "core/history.hpp"

namespace lockcheck {

/// read_history(history_path); when the file ended in a partly written
/// record (the controller died mid-write), prints one note on stderr saying
/// it was ignored. Throws HistoryError as read_history does.
History read_stored_history(const std::filesystem::path& history_path);

}  // namespace lockcheck
