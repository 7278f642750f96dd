// Reading a stream line by line in large blocks, for parsers that read past
// the end of the text they are given (simdjson reads up to 64 bytes beyond).
#pragma once

#include <cstddef>
#include <istream>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace lockcheck {

/// A line longer than the reader's bound (what() says the bound).
class LineTooLongError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Splits a stream into lines as std::getline does ('\n' ends a line and is
/// not part of it; a last line without '\n' is a line too; nothing follows
/// a final '\n'), reading the stream in blocks instead of a line at a time.
/// Every line it yields has at least kPadding readable bytes after its end.
class PaddedLineReader {
public:
    /// Readable bytes guaranteed after the end of every line (simdjson's SIMDJSON_PADDING).
    static constexpr std::size_t kPadding = 64;

    struct Line {
        std::string_view text;  ///< the line, without its '\n'; valid until the next call of next()
        bool has_newline;       ///< false for a last line that the stream ended before its '\n'
        std::size_t capacity;   ///< readable bytes from text.data(): at least text.size() + kPadding
    };

    /// The default bound of a line: 64 MiB, far beyond any record lockcheck writes.
    static constexpr std::size_t kDefaultMaxLine = std::size_t{64} << 20;

    /// Reads `in` in blocks of `block_size` bytes (a longer line grows the
    /// block, up to twice `max_line`).
    explicit PaddedLineReader(std::istream& in, std::size_t block_size = std::size_t{4} << 20,
                              std::size_t max_line = kDefaultMaxLine);

    /// The next line in `line`; false once the stream has no more. Throws
    /// LineTooLongError for a line longer than `max_line` bytes (a stream
    /// with no newline, such as /dev/zero, ends there instead of growing the
    /// block without end).
    bool next(Line& line);

    /// Bytes of the stream consumed by the lines returned so far (their '\n' included).
    std::size_t bytes_consumed() const { return consumed_; }

private:
    /// Moves the unread rest to the front, grows the block if the rest fills
    /// it, and appends what the stream has; sets eof_ when it has nothing more.
    void refill();

    std::istream& in_;
    std::size_t max_line_;
    std::vector<char> buffer_;  // block, then kPadding bytes that are never data
    std::size_t begin_ = 0;     // first unread byte
    std::size_t end_ = 0;       // one past the last byte read from the stream
    std::size_t consumed_ = 0;
    bool eof_ = false;
};

}  // namespace lockcheck
