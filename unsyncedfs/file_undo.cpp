#include "unsyncedfs/file_undo.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>
#include <vector>

namespace lockcheck::unsyncedfs {
namespace {

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

off_t current_size(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail("fstat");
    return st.st_size;
}

/// Reads up to `length` bytes at `offset`; bytes past the end of the file read as zeros.
std::string read_exactly(int fd, off_t offset, std::size_t length) {
    std::string bytes(length, '\0');
    std::size_t done = 0;
    while (done < length) {
        const ssize_t n = ::pread(fd, bytes.data() + done, length - done, offset + static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("pread");
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    return bytes;
}

void write_exactly(int fd, const char* data, std::size_t length, off_t offset) {
    std::size_t done = 0;
    while (done < length) {
        const ssize_t n = ::pwrite(fd, data + done, length - done, offset + static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("pwrite");
        done += static_cast<std::size_t>(n);
    }
}

bool all_zero(const std::string& bytes) {
    return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == '\0'; });
}

}  // namespace

void FileUndo::start_empty() {
    synced();
    tracking_ = true;
}

void FileUndo::begin_tracking(int fd) {
    if (tracking_) return;
    durable_size_ = current_size(fd);
    tracking_ = true;
}

void FileUndo::save_pages(int fd, off_t begin, off_t end) {
    end = std::min(end, durable_size_);
    if (begin >= end) return;
    for (off_t page = begin / kPageSize; page * kPageSize < end; ++page) {
        if (saved_.count(page) != 0) continue;
        const off_t start = page * kPageSize;
        const auto length = static_cast<std::size_t>(std::min(kPageSize, durable_size_ - start));
        auto bytes = read_exactly(fd, start, length);
        if (all_zero(bytes)) bytes.clear();
        saved_.emplace(page, std::move(bytes));
    }
}

void FileUndo::before_write(int fd, off_t offset, off_t length) {
    before_zero_range(fd, offset, length);
    LastWrite last{offset, static_cast<std::size_t>(length), current_size(fd), {}};
    if (offset < last.prior_size)
        last.prior_bytes =
            read_exactly(fd, offset, static_cast<std::size_t>(std::min(length, last.prior_size - offset)));
    last_write_ = std::move(last);
}

void FileUndo::before_zero_range(int fd, off_t offset, off_t length) {
    begin_tracking(fd);
    save_pages(fd, offset, offset + length);
    for (off_t sector = offset / kPageSize; sector * kPageSize < offset + length; ++sector)
        written_sectors_.insert(sector);
    last_write_.reset();
}

void FileUndo::before_truncate(int fd, off_t new_size) {
    begin_tracking(fd);
    save_pages(fd, new_size, durable_size_);
    last_write_.reset();
}

void FileUndo::before_grow(int fd) {
    begin_tracking(fd);
    last_write_.reset();
}

void FileUndo::synced() {
    tracking_ = false;
    durable_size_ = 0;
    saved_.clear();
    written_sectors_.clear();
    last_write_.reset();
}

bool FileUndo::restore(int fd, const Tear& tear) {
    if (!tracking_) return false;
    bool kept = false;
    if (tear.mode == TearMode::LastWritePrefix && last_write_)
        kept = tear_last_write(fd, tear.seed);
    else if (tear.mode == TearMode::Sectors)
        kept = tear_sectors(fd, tear.seed);
    else
        put_back_durable(fd);
    synced();
    return kept;
}

bool FileUndo::tear_last_write(int fd, std::uint64_t seed) {
    const LastWrite& last = *last_write_;
    const std::size_t prefix = torn_prefix_length(seed, last.offset, last.length);
    const off_t cut = last.offset + static_cast<off_t>(prefix);
    if (prefix < last.prior_bytes.size())
        write_exactly(fd, last.prior_bytes.data() + prefix, last.prior_bytes.size() - prefix, cut);
    if (last.prior_size < last.offset + static_cast<off_t>(last.length) &&
        ::ftruncate(fd, std::max(last.prior_size, cut)) != 0)
        fail("ftruncate");
    return true;
}

bool FileUndo::tear_sectors(int fd, std::uint64_t seed) {
    const off_t size = current_size(fd);
    std::vector<std::pair<off_t, std::string>> kept;
    for (const off_t sector : written_sectors_) {
        const off_t start = sector * kPageSize;
        if (start >= size || !sector_survives(seed, sector)) continue;
        kept.emplace_back(start, read_exactly(fd, start, static_cast<std::size_t>(std::min(kPageSize, size - start))));
    }
    put_back_durable(fd);
    for (const auto& [start, bytes] : kept) write_exactly(fd, bytes.data(), bytes.size(), start);
    return !kept.empty();
}

void FileUndo::put_back_durable(int fd) {
    if (::ftruncate(fd, durable_size_) != 0) fail("ftruncate");
    for (const auto& [page, bytes] : saved_) {
        const off_t start = page * kPageSize;
        if (bytes.empty()) {
            const std::string zeros(static_cast<std::size_t>(std::min(kPageSize, durable_size_ - start)), '\0');
            write_exactly(fd, zeros.data(), zeros.size(), start);
        } else {
            write_exactly(fd, bytes.data(), bytes.size(), start);
        }
    }
}

}  // namespace lockcheck::unsyncedfs
