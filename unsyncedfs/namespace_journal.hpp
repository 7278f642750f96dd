// The directory changes of the lose-unsynced filesystem that are not durable
// yet, in the order they were made (docs/nemesis.md, "The lose-unsynced
// filesystem").
//
// Every change is applied to the backing directory at once and recorded with
// how to undo it. What a change removes from the namespace (an unlinked file,
// a removed directory, the target a rename replaced) is not deleted but
// parked in the attic, a directory beside the backing directory on the same
// filesystem, so that undoing the change can put it back. Committing a
// prefix of the journal makes those changes durable and deletes what they
// parked. A power loss undoes every change not committed, newest first, and
// empties the attic. Changes are journaled in order, like a journaling
// filesystem's metadata: a commit always covers a prefix, so the durable
// namespace is always one the running system passed through.
//
// Thread-safe: one mutex serialises every change with its backing syscall.
// Methods return 0 or an errno value for the FUSE reply.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "unsyncedfs/inode_table.hpp"

namespace lockcheck::unsyncedfs {

class NamespaceJournal {
public:
    using Dir = std::shared_ptr<Inode>;

    /// `attic_fd`: a directory descriptor on the backing filesystem (owned).
    /// Empties the attic (leftovers of a daemon that was killed).
    explicit NamespaceJournal(int attic_fd);
    ~NamespaceJournal();
    NamespaceJournal(const NamespaceJournal&) = delete;
    NamespaceJournal& operator=(const NamespaceJournal&) = delete;

    /// Runs `make` (the syscall that creates `name` in `dir`: a file, a
    /// directory, a symlink, a device or a hard link; it returns 0 or errno)
    /// and journals the new entry when it succeeds.
    int create(const Dir& dir, const std::string& name, bool is_directory, const std::function<int()>& make);
    /// unlink(2) (`is_directory` false) or rmdir(2) of `name` in `dir`.
    int remove(const Dir& dir, const std::string& name, bool is_directory);
    /// rename(2) with flags 0, RENAME_NOREPLACE or RENAME_EXCHANGE.
    int rename(const Dir& from, const std::string& from_name, const Dir& to, const std::string& to_name,
               unsigned int flags);

    /// Makes durable every change up to the last one that touched `dir`.
    void commit_through(const Inode& dir);
    /// Makes every change so far durable.
    void commit_all();
    /// Undoes every change not committed, newest first, and empties the
    /// attic. Returns how many changes it undid; `failures` counts the
    /// backing syscalls that failed (each is logged on stderr).
    std::size_t undo_all(std::size_t& failures);
    /// Changes not durable yet.
    std::size_t pending() const;

private:
    enum class Kind { Created, Removed, Renamed, Exchanged };
    struct Change {
        Kind kind;
        Dir dir;  ///< Created/Removed: the directory; Renamed/Exchanged: the source's
        std::string name;
        Dir to_dir;  ///< Renamed/Exchanged: the target's directory
        std::string to_name;
        std::string parked;  ///< Removed: the entry in the attic; Renamed: the replaced target's ("" if none)
        bool parked_is_directory = false;
        bool is_directory = false;  ///< Created: a directory
        bool touches(const Inode& d) const { return dir.get() == &d || to_dir.get() == &d; }
    };

    mutable std::mutex mutex_;
    int attic_fd_;
    std::uint64_t next_parked_ = 0;
    std::deque<Change> changes_;

    std::string park(int dir_fd, const std::string& name, int& error);
    void commit_locked(std::size_t count);
    bool undo(const Change& change);
    void delete_parked(const std::string& name, bool is_directory);
    void empty_attic();
};

}  // namespace lockcheck::unsyncedfs
