// The inodes of the lose-unsynced filesystem the kernel knows about, each
// with an O_PATH descriptor of its backing inode (as libfuse's
// passthrough_ll does), so operations follow an inode wherever renames move
// it. The FUSE inode number is the Inode's address (the root is
// FUSE_ROOT_ID). An inode stays in the table while the kernel holds lookups
// on it, while anything else shares it (the namespace journal holds its
// directories) and while its data is not durable (its FileUndo tracks).
// Thread-safe.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "unsyncedfs/file_undo.hpp"

namespace lockcheck::unsyncedfs {

struct Inode : std::enable_shared_from_this<Inode> {
    Inode(int path_fd, const struct stat& st)
        : fd(path_fd), device(st.st_dev), number(st.st_ino), type(st.st_mode & S_IFMT) {}
    ~Inode();
    Inode(const Inode&) = delete;
    Inode& operator=(const Inode&) = delete;

    const int fd;  ///< O_PATH descriptor of the backing inode (owned)
    const dev_t device;
    const ino_t number;
    const mode_t type;          ///< S_IFREG, S_IFDIR, ...
    std::mutex data_mutex;      ///< guards `undo` and the writes it describes
    FileUndo undo;              ///< regular files only
    std::uint64_t lookups = 0;  ///< the kernel's lookup count (InodeTable's lock)
};

class InodeTable {
public:
    static constexpr std::uint64_t kRootIno = 1;  ///< FUSE_ROOT_ID

    /// Takes ownership of `root_fd` (an O_PATH descriptor of the backing root).
    explicit InodeTable(int root_fd);

    std::shared_ptr<Inode> root() const { return root_; }
    /// The inode a FUSE inode number names. The kernel only sends numbers it holds lookups on.
    Inode& at(std::uint64_t fuse_ino) const;
    /// The FUSE inode number of `inode`.
    std::uint64_t fuse_ino(const Inode& inode) const;

    /// Registers one more kernel lookup of the backing inode `st` describes,
    /// reached through `path_fd` (owned: closed when the inode is known already).
    Inode& add_lookup(int path_fd, const struct stat& st);
    /// One more kernel lookup of an inode already known (a hard link's reply).
    void add_lookup(Inode& inode);
    /// The kernel forgot `count` lookups.
    void forget(std::uint64_t fuse_ino, std::uint64_t count);
    /// Calls `visit` on every inode (under the table's lock).
    void for_each(const std::function<void(Inode&)>& visit);
    /// Drops inodes nobody needs any longer (after the journal released some).
    void prune();

private:
    using Key = std::pair<dev_t, ino_t>;
    mutable std::mutex mutex_;
    std::shared_ptr<Inode> root_;
    std::map<Key, std::shared_ptr<Inode>> inodes_;

    bool needed_locked(const std::shared_ptr<Inode>& inode) const;
};

}  // namespace lockcheck::unsyncedfs
