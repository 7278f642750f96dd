#include "unsyncedfs/inode_table.hpp"

#include <unistd.h>

namespace lockcheck::unsyncedfs {

Inode::~Inode() { ::close(fd); }

InodeTable::InodeTable(int root_fd) {
    struct stat st {};
    ::fstat(root_fd, &st);
    root_ = std::make_shared<Inode>(root_fd, st);
    root_->lookups = 1;  // the kernel never forgets the root
}

Inode& InodeTable::at(std::uint64_t fuse_ino) const {
    if (fuse_ino == kRootIno) return *root_;
    return *reinterpret_cast<Inode*>(static_cast<std::uintptr_t>(fuse_ino));
}

std::uint64_t InodeTable::fuse_ino(const Inode& inode) const {
    if (&inode == root_.get()) return kRootIno;
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&inode));
}

Inode& InodeTable::add_lookup(int path_fd, const struct stat& st) {
    std::lock_guard lock(mutex_);
    if (st.st_dev == root_->device && st.st_ino == root_->number) {
        ::close(path_fd);
        ++root_->lookups;
        return *root_;
    }
    auto& slot = inodes_[Key{st.st_dev, st.st_ino}];
    if (slot) {
        ::close(path_fd);
    } else {
        slot = std::make_shared<Inode>(path_fd, st);
    }
    ++slot->lookups;
    return *slot;
}

void InodeTable::add_lookup(Inode& inode) {
    std::lock_guard lock(mutex_);
    ++inode.lookups;
}

bool InodeTable::needed_locked(const std::shared_ptr<Inode>& inode) const {
    if (inode->lookups > 0 || inode.use_count() > 1) return true;
    std::unique_lock data(inode->data_mutex, std::try_to_lock);
    return !data.owns_lock() || inode->undo.tracking();
}

void InodeTable::forget(std::uint64_t fuse_ino, std::uint64_t count) {
    std::lock_guard lock(mutex_);
    Inode& inode = at(fuse_ino);
    inode.lookups = inode.lookups > count ? inode.lookups - count : 0;
    if (&inode == root_.get()) return;
    const auto found = inodes_.find(Key{inode.device, inode.number});
    if (found != inodes_.end() && !needed_locked(found->second)) inodes_.erase(found);
}

void InodeTable::for_each(const std::function<void(Inode&)>& visit) {
    std::lock_guard lock(mutex_);
    visit(*root_);
    for (auto& [key, inode] : inodes_) visit(*inode);
}

void InodeTable::prune() {
    std::lock_guard lock(mutex_);
    std::erase_if(inodes_, [this](const auto& entry) { return !needed_locked(entry.second); });
}

}  // namespace lockcheck::unsyncedfs
