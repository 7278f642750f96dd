#include "core/padded_line_reader.hpp"

#include <cstring>
#include <string>

namespace lockcheck {

PaddedLineReader::PaddedLineReader(std::istream& in, std::size_t block_size, std::size_t max_line)
    : in_(in), max_line_(max_line), buffer_(block_size + kPadding) {}

bool PaddedLineReader::next(Line& line) {
    for (;;) {
        const char* start = buffer_.data() + begin_;
        if (const void* newline = std::memchr(start, '\n', end_ - begin_)) {
            const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
            line = {{start, length}, true, buffer_.size() - begin_};
            begin_ += length + 1;
            consumed_ += length + 1;
            return true;
        }
        if (eof_) {
            if (begin_ == end_) return false;
            const std::size_t length = end_ - begin_;
            line = {{start, length}, false, buffer_.size() - begin_};
            begin_ = end_;
            consumed_ += length;
            return true;
        }
        refill();
    }
}

void PaddedLineReader::refill() {
    const std::size_t rest = end_ - begin_;
    if (begin_ > 0 && rest > 0) std::memmove(buffer_.data(), buffer_.data() + begin_, rest);
    begin_ = 0;
    end_ = rest;
    const std::size_t block = buffer_.size() - kPadding;
    if (end_ == block) {  // one line longer than a block
        if (block > max_line_) throw LineTooLongError("a line longer than " + std::to_string(max_line_) + " bytes");
        buffer_.resize(2 * block + kPadding);
    }
    in_.read(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - kPadding - end_));
    const auto got = static_cast<std::size_t>(in_.gcount());
    end_ += got;
    if (got == 0 || !in_) eof_ = true;
}

}  // namespace lockcheck
