// Reading and writing history.jsonl: one op record per line.
#pragma once

#include <filesystem>
#include <istream>
#include <mutex>
#include <string>

#include "core/history.hpp"

namespace lockcheck {

/// What the reader saw besides the ops.
struct HistoryReadReport {
    bool dropped_torn_tail = false;  ///< the last line had no newline and did not parse (writer died mid-line)
};

/// Parses a history from a stream. `source` names it in error messages.
/// Throws HistoryError("SOURCE:LINE: reason") for the first record that no
/// recorder writes: one that is not JSON or nests deeper than kMaxJsonDepth
/// (core/json_text.hpp), breaks the op contract (op_from_json), has an index
/// that does not increase or a time before the previous record's (one
/// monotonic clock, read in index order), or an invoke/completion that does
/// not pair (OpPairing). A final line without a newline that does not parse
/// is dropped and reported, since a controller killed mid-write leaves one.
History parse_history(std::istream& in, const std::string& source, HistoryReadReport* report = nullptr);

/// Reads history.jsonl from disk (see parse_history).
History read_history(const std::filesystem::path& path, HistoryReadReport* report = nullptr);

/// Appends op records to a history.jsonl. Every record is handed to the
/// kernel with one write(2) of its whole line as it is written (no user-space
/// buffer), so a crash of the controller loses no completed record.
/// Thread-safe.
class HistoryWriter {
public:
    explicit HistoryWriter(const std::filesystem::path& path);
    ~HistoryWriter();
    HistoryWriter(const HistoryWriter&) = delete;
    HistoryWriter& operator=(const HistoryWriter&) = delete;

    /// Writes one record as a line (core/op_record_text.hpp) with one
    /// write(2); throws std::runtime_error on I/O failure.
    void write(const Op& op);

private:
    int fd_;
    std::string path_;
    std::mutex mutex_;
    std::string line_;  ///< the record being written, kept to reuse its memory (under mutex_)
};

/// Writes a whole history (used by tests and generators).
void write_history(const std::filesystem::path& path, const History& history);

}  // namespace lockcheck
