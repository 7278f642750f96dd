// The history reader's fast path: one op record parsed with simdjson, for the
// records a recorder writes, without building a nlohmann::json value first.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "core/op.hpp"

namespace lockcheck {

/// Parses the common op record, and only it: a flat JSON object of Op's
/// fields, each at most once, whose values are strings without escapes,
/// integers, booleans or null, and which follows the op contract. Anything
/// else (nested values, escapes, floats, unknown or repeated fields, bytes
/// below 0x20 inside the line, a record that is not JSON or breaks a rule)
/// it declines, and the caller reads the line with op_from_json(
/// parse_json_bounded(line)), which accepts it or says what is wrong.
/// Reuses its buffers across records; one reader per thread.
class FastOpReader {
public:
    FastOpReader();
    ~FastOpReader();
    FastOpReader(const FastOpReader&) = delete;
    FastOpReader& operator=(const FastOpReader&) = delete;

    /// Reads `line` into `op`, which must be default-constructed. `capacity`:
    /// readable bytes from line.data(), at least line.size() + 64
    /// (PaddedLineReader::Line::capacity). Returns true with `op` equal to
    /// what op_from_json(parse_json_bounded(line)) returns; false when it
    /// declines the line (then `op` may be partly filled).
    bool read(std::string_view line, std::size_t capacity, Op& op);

private:
    struct Parser;
    std::unique_ptr<Parser> parser_;
};

}  // namespace lockcheck
