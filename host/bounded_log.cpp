#include "host/bounded_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lockcheck {

BoundedLog::BoundedLog(const std::filesystem::path& path, std::uint64_t head, std::uint64_t tail)
    : head_limit_(head), tail_limit_(std::max<std::uint64_t>(tail, 1)) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0660);
    if (fd_ < 0) throw std::runtime_error("cannot open its log " + path.string() + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) == 0) end_ = static_cast<std::uint64_t>(st.st_size);
    head_end_ = end_;
}

BoundedLog::~BoundedLog() {
    if (fd_ >= 0) ::close(fd_);
}

void BoundedLog::write_at(std::uint64_t offset, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // a full disk: what is lost is lost, the run goes on
        bytes.remove_prefix(static_cast<std::size_t>(n));
        offset += static_cast<std::uint64_t>(n);
    }
}

void BoundedLog::append(std::string_view bytes) {
    if (tail_start_ == 0 && head_end_ < head_limit_) {  // the head is still filling
        const auto room = static_cast<std::size_t>(std::min<std::uint64_t>(head_limit_ - head_end_, bytes.size()));
        write_at(end_, bytes.substr(0, room));
        end_ += room;
        head_end_ = end_;
        bytes.remove_prefix(room);
    }
    if (bytes.empty()) return;
    if (tail_start_ == 0) tail_start_ = head_end_;  // past the head: the tail begins (no cut yet)
    write_at(end_, bytes);
    end_ += bytes.size();
    if (end_ - tail_start_ > 2 * tail_limit_) compact();
}

void BoundedLog::compact() {
    std::string kept(static_cast<std::size_t>(tail_limit_), '\0');
    const std::uint64_t from = end_ - tail_limit_;
    std::size_t got = 0;
    while (got < kept.size()) {
        const ssize_t n = ::pread(fd_, kept.data() + got, kept.size() - got, static_cast<off_t>(from + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // cannot read it back: leave the file as it is
        got += static_cast<std::size_t>(n);
    }
    std::size_t skip = 0;  // start the kept part at a line start when it has one
    if (const auto newline = kept.find('\n'); newline != std::string::npos && newline + 1 < kept.size())
        skip = newline + 1;
    cut_ += from + skip - tail_start_;  // what lay between the cut line (or the head) and the kept part
    std::string line = "[lockcheck: " + std::to_string(cut_) + " bytes of this log cut here; it keeps the first " +
                       std::to_string(head_limit_) + " and the last " + std::to_string(tail_limit_) + "]\n";
    if (head_end_ > 0) {  // the cut line starts a line of its own
        char last = '\n';
        if (::pread(fd_, &last, 1, static_cast<off_t>(head_end_ - 1)) == 1 && last != '\n') line.insert(0, "\n");
    }
    write_at(head_end_, line);
    tail_start_ = head_end_ + line.size();
    write_at(tail_start_, std::string_view(kept).substr(skip));
    end_ = tail_start_ + kept.size() - skip;
    while (::ftruncate(fd_, static_cast<off_t>(end_)) != 0 && errno == EINTR) {}
}

}  // namespace lockcheck
