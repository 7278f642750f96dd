// A log file that stays bounded however much is written to it: it keeps the
// first `head` bytes and the last `tail` bytes (or a little more) of what was
// written, with one line between them saying how many bytes were cut there:
//   [lockcheck: 201326592 bytes of this log cut here; it keeps the first 1048576 and the last 1048576]
// The file is up to date after every append (no tail waits in memory for the
// end), so a run killed with kill -9 still leaves a readable log. Used for
// worker logs (a client flooding stderr, docs/protocol.md).
// Not thread-safe: one writer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace lockcheck {

class BoundedLog {
public:
    /// Appends to `path` (created 0660 when missing; what it holds already
    /// counts toward the head). Throws std::runtime_error when it cannot be opened.
    BoundedLog(const std::filesystem::path& path, std::uint64_t head, std::uint64_t tail);
    ~BoundedLog();
    BoundedLog(const BoundedLog&) = delete;
    BoundedLog& operator=(const BoundedLog&) = delete;

    /// Writes `bytes`; once the head is full, the file's tail past the cut
    /// line is kept between `tail` and 2 × `tail` bytes long (cut at a line
    /// start when the kept part holds a newline). Write errors are ignored (a
    /// full disk must not stop a run).
    void append(std::string_view bytes);

    /// How many bytes were cut so far.
    std::uint64_t cut_bytes() const { return cut_; }

private:
    int fd_ = -1;
    std::uint64_t head_limit_;
    std::uint64_t tail_limit_;
    std::uint64_t head_end_ = 0;    ///< file offset where the head ends (the cut line starts, once there is one)
    std::uint64_t tail_start_ = 0;  ///< file offset of the first byte after the cut line (0: no cut line yet)
    std::uint64_t end_ = 0;         ///< file size
    std::uint64_t cut_ = 0;

    void write_at(std::uint64_t offset, std::string_view bytes);
    /// Moves the last tail_limit_ bytes (from a line start) right after a new
    /// cut line and truncates the file there.
    void compact();
};

}  // namespace lockcheck
