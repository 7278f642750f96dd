#include "clusters/file_damage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <stdexcept>

namespace lockcheck {
namespace {

std::string read_all(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `bytes` over the file at `offset`, never truncating it.
void write_at(const std::filesystem::path& file, std::uint64_t offset, const std::string& bytes) {
    std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(offset));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

void resize(const std::filesystem::path& file, std::uint64_t size) {
    std::error_code error;
    std::filesystem::resize_file(file, size, error);
    if (error) throw std::runtime_error("cannot truncate " + file.string() + ": " + error.message());
}

/// The range [first, end) of a file of `size` bytes: `length` bytes ending `end_offset` before its end.
std::pair<std::uint64_t, std::uint64_t> range_from_end(std::uint64_t size, std::int64_t end_offset,
                                                       std::int64_t length) {
    const std::uint64_t end = size - std::min(size, static_cast<std::uint64_t>(std::max<std::int64_t>(end_offset, 0)));
    const std::uint64_t first = end - std::min(end, static_cast<std::uint64_t>(std::max<std::int64_t>(length, 0)));
    return {first, end};
}

/// A decimal number ending in "\r\n" at `at`, moving `at` past it; false when torn or malformed.
bool read_resp_number(std::string_view bytes, std::size_t& at, std::uint64_t& number) {
    const auto end = bytes.find("\r\n", at);
    if (end == std::string_view::npos || end == at) return false;
    number = 0;
    for (std::size_t i = at; i < end; ++i) {
        if (bytes[i] < '0' || bytes[i] > '9' || number > (1ULL << 40)) return false;
        number = number * 10 + static_cast<std::uint64_t>(bytes[i] - '0');
    }
    at = end + 2;
    return true;
}

/// Moves `at` past one complete RESP array of bulk strings, setting `name`
/// to its first item (the command); false when torn or malformed.
bool skip_resp_command(std::string_view bytes, std::size_t& at, std::string_view& name) {
    std::uint64_t items = 0;
    if (at >= bytes.size() || bytes[at] != '*' || !read_resp_number(bytes, ++at, items)) return false;
    name = {};
    for (std::uint64_t i = 0; i < items; ++i) {
        std::uint64_t length = 0;
        if (at >= bytes.size() || bytes[at] != '$' || !read_resp_number(bytes, ++at, length)) return false;
        if (bytes.size() - at < length + 2 || bytes.substr(at + length, 2) != "\r\n") return false;
        if (i == 0) name = bytes.substr(at, length);
        at += length + 2;
    }
    return true;
}

bool is_command(std::string_view name, std::string_view command) {
    return name.size() == command.size() &&
           std::equal(name.begin(), name.end(), command.begin(),
                      [](char a, char b) { return std::toupper(static_cast<unsigned char>(a)) == b; });
}

std::string size_change(std::uint64_t before, std::uint64_t after) {
    return fmt::format("{} -> {} bytes", before, after);
}

}  // namespace

std::vector<std::uint64_t> record_boundaries(std::string_view bytes, RecordFormat format) {
    std::vector<std::uint64_t> starts;
    if (format == RecordFormat::None) return starts;
    // A MULTI ... EXEC block is one record: Redis applies it whole or, cut
    // inside, reverts it ("Revert incomplete MULTI/EXEC transaction").
    std::size_t at = 0;
    bool in_transaction = false;
    starts.push_back(0);
    while (at < bytes.size()) {
        std::string_view name;
        if (!skip_resp_command(bytes, at, name)) break;
        if (is_command(name, "MULTI")) in_transaction = true;
        if (is_command(name, "EXEC")) in_transaction = false;
        if (!in_transaction) starts.push_back(at);
    }
    return starts;
}

std::string cut_records(const std::filesystem::path& file, RecordFormat format, std::int64_t count) {
    if (format == RecordFormat::None)
        throw std::invalid_argument("lockcheck cannot tell the records of " + file.filename().string() + " apart");
    const auto bytes = read_all(file);
    const auto starts = record_boundaries(bytes, format);
    const std::size_t complete = starts.size() - 1;
    const std::size_t cut = std::min(complete, static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
    const std::uint64_t keep = starts[complete - cut];
    resize(file, keep);
    return fmt::format("cut {} bytes ({} record{}{}) off the end: {}", bytes.size() - keep, cut, cut == 1 ? "" : "s",
                       starts.back() < bytes.size() ? " and a torn tail" : "", size_change(bytes.size(), keep));
}

std::string cut_bytes(const std::filesystem::path& file, std::int64_t length) {
    const std::uint64_t size = std::filesystem::file_size(file);
    const auto [first, end] = range_from_end(size, 0, length);
    resize(file, first);
    return fmt::format("cut {} bytes off the end: {}", end - first, size_change(size, first));
}

std::string zero_range(const std::filesystem::path& file, std::int64_t end_offset, std::int64_t length) {
    const std::uint64_t size = std::filesystem::file_size(file);
    const auto [first, end] = range_from_end(size, end_offset, length);
    write_at(file, first, std::string(end - first, '\0'));
    return fmt::format("zeroed bytes {}-{} of {}", first, end, size);
}

std::string flip_bits(const std::filesystem::path& file, std::int64_t end_offset, std::int64_t length,
                      std::int64_t bits, std::uint64_t seed) {
    auto bytes = read_all(file);
    const auto [first, end] = range_from_end(bytes.size(), end_offset, length);
    const std::uint64_t positions = (end - first) * 8;
    std::mt19937_64 random(seed);
    std::set<std::uint64_t> flipped;
    while (flipped.size() < std::min<std::uint64_t>(positions, static_cast<std::uint64_t>(std::max<std::int64_t>(bits, 0))))
        flipped.insert(first * 8 + random() % positions);
    std::string offsets;
    for (const auto bit : flipped) {
        bytes[bit / 8] = static_cast<char>(static_cast<unsigned char>(bytes[bit / 8]) ^ (1U << (bit % 8)));
        offsets += (offsets.empty() ? "" : ", ") + fmt::format("{}.{}", bit / 8, bit % 8);
    }
    write_at(file, 0, bytes);
    return fmt::format("flipped {} bit{} of {} bytes (byte.bit: {})", flipped.size(), flipped.size() == 1 ? "" : "s",
                       bytes.size(), offsets.empty() ? "none" : offsets);
}

std::string restore_copy(const std::filesystem::path& file, const std::filesystem::path& older) {
    const std::uint64_t size = std::filesystem::exists(file) ? std::filesystem::file_size(file) : 0;
    const auto bytes = read_all(older);
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
    }
    return fmt::format("put back an older copy: {}", size_change(size, bytes.size()));
}

}  // namespace lockcheck
