// What a power loss must undo in one regular file of the lose-unsynced
// filesystem (docs/nemesis.md, "The lose-unsynced filesystem").
//
// Writes go to the backing file at once; before a write, truncate or hole
// punch changes bytes of the file's durable content for the first time since
// its last sync, FileUndo saves those bytes (whole 4 KiB pages, all-zero pages
// as a mark only). A power loss truncates the file back to its durable size
// and writes the saved pages back; a sync forgets them. A torn power loss
// (unsyncedfs/torn_write.hpp) keeps part of what was written: for it FileUndo
// also remembers the 4 KiB sectors written since the sync, and the last
// write with the bytes it overwrote. Not thread-safe: the
// caller holds the inode's lock around each call and the I/O it guards.
// Every method throws std::system_error when the backing file fails.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "unsyncedfs/torn_write.hpp"

namespace lockcheck::unsyncedfs {

class FileUndo {
public:
    static constexpr off_t kPageSize = 4096;

    /// The file was just created: none of its content is durable yet.
    void start_empty();
    /// True while the file's content may differ from its durable content.
    bool tracking() const { return tracking_; }
    /// Before writing [offset, offset + length) through `fd` (readable).
    void before_write(int fd, off_t offset, off_t length);
    /// Before zeroing [offset, offset + length) through `fd` (readable)
    /// without a write (fallocate's PUNCH_HOLE and ZERO_RANGE).
    void before_zero_range(int fd, off_t offset, off_t length);
    /// Before truncating (or extending) the file behind `fd` (readable) to `new_size`.
    void before_truncate(int fd, off_t new_size);
    /// Before growing the file behind `fd` without changing its bytes
    /// (fallocate without KEEP_SIZE): only its durable size must be kept.
    void before_grow(int fd);
    /// The file's current content is durable now (fsync, fdatasync).
    void synced();
    /// Puts the durable content back through `fd` (writable) and stops tracking.
    void restore(int fd) { restore(fd, Tear{}); }
    /// The same, torn as `tear` says (`fd` readable too): what it keeps of the unsynced writes
    /// stays. Under last-write-prefix a file whose last change since its sync
    /// was no write (a truncate or fallocate) loses all, as without a tear.
    /// Returns true when the file was torn rather than restored whole.
    bool restore(int fd, const Tear& tear);
    /// Pages whose durable bytes are saved (for status reports and tests).
    std::size_t saved_pages() const { return saved_.size(); }

private:
    /// The last write since the sync, and what it overwrote.
    struct LastWrite {
        off_t offset = 0;
        std::size_t length = 0;
        off_t prior_size = 0;     ///< the file's size before it
        std::string prior_bytes;  ///< the bytes it overwrote (those below prior_size)
    };

    bool tracking_ = false;
    off_t durable_size_ = 0;
    /// Page index -> the page's durable bytes; an empty string is a page of zeros.
    std::map<off_t, std::string> saved_;
    std::set<off_t> written_sectors_;      ///< 4 KiB sectors written since the sync
    std::optional<LastWrite> last_write_;  ///< unset when the last change was no write

    void begin_tracking(int fd);
    void save_pages(int fd, off_t begin, off_t end);
    void put_back_durable(int fd);
    bool tear_last_write(int fd, std::uint64_t seed);
    bool tear_sectors(int fd, std::uint64_t seed);
};

}  // namespace lockcheck::unsyncedfs
