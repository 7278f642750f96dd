#include "core/history_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "core/fast_op_reader.hpp"
#include "core/fd_write.hpp"
#include "core/json_text.hpp"
#include "core/op_record_text.hpp"
#include "core/padded_line_reader.hpp"
#include "core/regular_file.hpp"

namespace lockcheck {

namespace {

/// Bytes from the stream's position to its end, for a stream that can seek
/// (files and string streams); nullopt for one that cannot.
std::optional<std::size_t> bytes_left(std::istream& in) {
    const auto here = in.tellg();
    if (here < 0) return std::nullopt;
    in.seekg(0, std::ios::end);
    const auto end = in.tellg();
    in.seekg(here);
    if (!in || end < here) {
        in.clear();
        in.seekg(here);
        return std::nullopt;
    }
    return static_cast<std::size_t>(end - here);
}

/// Ops read before the history's size is estimated from their average length.
constexpr std::size_t kOpsSampledForReserve = 4096;

/// Asks Linux to back the ops' memory with transparent huge pages where the
/// system leaves that to madvise: a 1M-op history touches ≈ 300 MB, and
/// faulting it in 4 KB pages took as long as parsing it. Only advice: nothing
/// changes if the kernel declines.
void advise_huge_pages(void* data, std::size_t bytes) {
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHugePage - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

/// lines.next(line), with a line too long for the reader as a HistoryError at `where()`.
template <typename Where>
bool next_line(PaddedLineReader& lines, PaddedLineReader::Line& line, const Where& where) {
    try {
        return lines.next(line);
    } catch (const LineTooLongError& e) {
        throw HistoryError(where() + e.what() + ": no op record is that long");
    }
}

}  // namespace

History parse_history(std::istream& in, const std::string& source, HistoryReadReport* report) {
    History history;
    OpPairing pairing;
    const std::optional<std::size_t> stream_bytes = bytes_left(in);
    PaddedLineReader lines(in);
    PaddedLineReader::Line line;
    FastOpReader fast;
    std::size_t line_number = 0;
    const auto where = [&] { return source + ":" + std::to_string(line_number) + ": "; };
    const auto where_next = [&] { return source + ":" + std::to_string(line_number + 1) + ": "; };
    while (next_line(lines, line, where_next)) {
        ++line_number;
        if (line.text.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        if (history.size() == kOpsSampledForReserve && stream_bytes) {
            // Reserve once, from the average record so far, instead of growing
            // (and copying) the vector step by step; a quarter more than the
            // estimate costs no memory that is never touched.
            const double bytes_per_op =
                static_cast<double>(lines.bytes_consumed()) / static_cast<double>(history.size());
            history.reserve(static_cast<std::size_t>(1.25 * static_cast<double>(*stream_bytes) / bytes_per_op) + 16);
            advise_huge_pages(history.data(), history.capacity() * sizeof(Op));
        }
        Op& op = history.emplace_back();
        if (!fast.read(line.text, line.capacity, op)) {
            try {
                op = op_from_json(parse_json_bounded(line.text));
            } catch (const JsonInputError& e) {
                if (!line.has_newline && !e.too_deep()) {  // torn final record of a writer that died mid-line
                    history.pop_back();
                    if (report) report->dropped_torn_tail = true;
                    break;
                }
                throw HistoryError(where() + e.what());
            } catch (const OpFormatError& e) {
                throw HistoryError(where() + e.what());
            }
        }
        if (history.size() > 1) {
            const Op& previous = history[history.size() - 2];
            if (op.index <= previous.index)
                throw HistoryError(where() + "index " + std::to_string(op.index) + " does not follow index " +
                                   std::to_string(previous.index));
            if (op.time < previous.time)
                throw HistoryError(where() + "time " + std::to_string(op.time) + " is before time " +
                                   std::to_string(previous.time) + " of op " + std::to_string(previous.index) +
                                   ": the recorder's one clock never goes back");
        }
        try {
            pairing.add(history, history.size() - 1);
        } catch (const HistoryError& e) {
            throw HistoryError(where() + e.what());
        }
    }
    if (in.bad())
        throw HistoryError(source + ": cannot be read (a read failed after line " + std::to_string(line_number) + ")");
    return history;
}

History read_history(const std::filesystem::path& path, HistoryReadReport* report) {
    if (const auto why = not_a_regular_file(path)) throw HistoryError(path.string() + ": " + *why);
    std::ifstream in(path);
    if (!in) throw HistoryError(path.string() + ": cannot open: " + std::strerror(errno));
    return parse_history(in, path.string(), report);
}

HistoryWriter::HistoryWriter(const std::filesystem::path& path)
    : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)), path_(path.string()) {
    if (fd_ < 0) throw std::runtime_error(path_ + ": cannot create: " + std::strerror(errno));
}

HistoryWriter::~HistoryWriter() { ::close(fd_); }

void HistoryWriter::write(const Op& op) {
    std::lock_guard lock(mutex_);
    line_.clear();
    append_op_record(line_, op);
    line_.push_back('\n');
    // One write(2) for the whole line; a short write (a full disk, a signal)
    // continues where it stopped, so a record is never left half written
    // while the controller lives.
    if (!write_all(fd_, line_)) throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
}

void write_history(const std::filesystem::path& path, const History& history) {
    HistoryWriter writer(path);
    for (const auto& op : history) writer.write(op);
}

}  // namespace lockcheck
