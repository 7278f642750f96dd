#include "unsyncedfs/fuse_handlers.hpp"

#include "unsyncedfs/directory_handles.hpp"
#include "unsyncedfs/file_handles.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <memory>
#include <string>
#include <vector>

namespace lockcheck::unsyncedfs {
namespace {

/// Looks `name` up in `parent`, registers the kernel's new lookup and fills `entry`.
int lookup_entry(FilesystemContext& fs, Inode& parent, const char* name, fuse_entry_param& entry) {
    entry = fuse_entry_param{};
    entry.attr_timeout = fs.cache_timeout;
    entry.entry_timeout = fs.cache_timeout;
    const int fd = ::openat(parent.fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno;
    if (::fstatat(fd, "", &entry.attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) {
        const int error = errno;
        ::close(fd);
        return error;
    }
    entry.ino = fs.table.fuse_ino(fs.table.add_lookup(fd, entry.attr));
    return 0;
}

/// Files the daemon (root) creates belong to the process that asked.
void give_to_caller(fuse_req_t req, int dir_fd, const char* name) {
    const fuse_ctx* caller = fuse_req_ctx(req);
    if (caller->uid != ::geteuid() || caller->gid != ::getegid())
        ::fchownat(dir_fd, name, caller->uid, caller->gid, AT_SYMLINK_NOFOLLOW);
}

/// Replies to a create-like request: looks the new entry up and, for a new
/// regular file, tells the model none of it is durable.
void reply_created(fuse_req_t req, Inode& parent, const char* name, int error) {
    if (error != 0) return reply_error(req, error);
    FilesystemContext& fs = context(req);
    give_to_caller(req, parent.fd, name);
    fuse_entry_param entry;
    if (const int lookup_error = lookup_entry(fs, parent, name, entry); lookup_error != 0)
        return reply_error(req, lookup_error);
    if (S_ISREG(entry.attr.st_mode)) fs.model.created(fs.table.at(entry.ino));
    fuse_reply_entry(req, &entry);
}

void op_init(void*, fuse_conn_info* conn) {
    conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
    if ((conn->capable & FUSE_CAP_ATOMIC_O_TRUNC) != 0) conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
}

void op_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    fuse_entry_param entry;
    const int error = lookup_entry(fs, fs.table.at(parent), name, entry);
    if (error == ENOENT) {  // cache the absence too: only this mount changes the directory
        entry = fuse_entry_param{};
        entry.entry_timeout = fs.cache_timeout;
        fuse_reply_entry(req, &entry);
        return;
    }
    if (error != 0) return reply_error(req, error);
    fuse_reply_entry(req, &entry);
}

void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t count) {
    context(req).table.forget(ino, count);
    fuse_reply_none(req);
}

void op_forget_multi(fuse_req_t req, size_t count, fuse_forget_data* forgets) {
    for (size_t i = 0; i < count; ++i) context(req).table.forget(forgets[i].ino, forgets[i].nlookup);
    fuse_reply_none(req);
}

void op_getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    struct stat st {};
    if (::fstatat(fs.table.at(ino).fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
        return reply_error(req, errno);
    fuse_reply_attr(req, &st, fs.cache_timeout);
}

/// setattr's size change: through the caller's descriptor, or one opened for it.
int change_size(FilesystemContext& fs, Inode& inode, fuse_file_info* fi, off_t size) {
    if (fi != nullptr) return fs.model.truncate(inode, open_file(fi).fd, size);
    const int fd = ::open(proc_path(inode.fd).c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return errno;
    const int error = fs.model.truncate(inode, fd, size);
    ::close(fd);
    return error;
}

int change_times(const Inode& inode, const struct stat* attr, int valid) {
    timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_OMIT}};
    if ((valid & FUSE_SET_ATTR_ATIME_NOW) != 0)
        times[0].tv_nsec = UTIME_NOW;
    else if ((valid & FUSE_SET_ATTR_ATIME) != 0)
        times[0] = attr->st_atim;
    if ((valid & FUSE_SET_ATTR_MTIME_NOW) != 0)
        times[1].tv_nsec = UTIME_NOW;
    else if ((valid & FUSE_SET_ATTR_MTIME) != 0)
        times[1] = attr->st_mtim;
    if (S_ISLNK(inode.type)) return ::utimensat(inode.fd, "", times, AT_EMPTY_PATH) == 0 ? 0 : errno;
    return ::utimensat(AT_FDCWD, proc_path(inode.fd).c_str(), times, 0) == 0 ? 0 : errno;
}

void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int valid, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    Inode& inode = fs.table.at(ino);
    int error = 0;
    if ((valid & FUSE_SET_ATTR_MODE) != 0 && ::chmod(proc_path(inode.fd).c_str(), attr->st_mode) != 0) error = errno;
    if (error == 0 && (valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) != 0) {
        const uid_t uid = (valid & FUSE_SET_ATTR_UID) != 0 ? attr->st_uid : static_cast<uid_t>(-1);
        const gid_t gid = (valid & FUSE_SET_ATTR_GID) != 0 ? attr->st_gid : static_cast<gid_t>(-1);
        if (::fchownat(inode.fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) error = errno;
    }
    if (error == 0 && (valid & FUSE_SET_ATTR_SIZE) != 0) error = change_size(fs, inode, fi, attr->st_size);
    if (error == 0 && (valid & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) != 0)
        error = change_times(inode, attr, valid);
    if (error != 0) return reply_error(req, error);
    struct stat st {};
    if (::fstatat(inode.fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) return reply_error(req, errno);
    fuse_reply_attr(req, &st, fs.cache_timeout);
}

void op_readlink(fuse_req_t req, fuse_ino_t ino) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    std::vector<char> target(PATH_MAX + 1);
    const ssize_t n = ::readlinkat(fs.table.at(ino).fd, "", target.data(), target.size());
    if (n < 0) return reply_error(req, errno);
    if (static_cast<size_t>(n) == target.size()) return reply_error(req, ENAMETOOLONG);
    target[static_cast<size_t>(n)] = '\0';
    fuse_reply_readlink(req, target.data());
}

void op_mknod(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, dev_t rdev) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    auto dir = fs.table.at(parent).shared_from_this();
    const int error = fs.model.journal().create(dir, name, false,
                                                [&] { return ::mknodat(dir->fd, name, mode, rdev) == 0 ? 0 : errno; });
    reply_created(req, *dir, name, error);
}

void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    auto dir = fs.table.at(parent).shared_from_this();
    const int error =
        fs.model.journal().create(dir, name, true, [&] { return ::mkdirat(dir->fd, name, mode) == 0 ? 0 : errno; });
    reply_created(req, *dir, name, error);
}

void op_symlink(fuse_req_t req, const char* link, fuse_ino_t parent, const char* name) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    auto dir = fs.table.at(parent).shared_from_this();
    const int error =
        fs.model.journal().create(dir, name, false, [&] { return ::symlinkat(link, dir->fd, name) == 0 ? 0 : errno; });
    reply_created(req, *dir, name, error);
}

void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t new_parent, const char* new_name) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    Inode& inode = fs.table.at(ino);
    auto dir = fs.table.at(new_parent).shared_from_this();
    const int error = fs.model.journal().create(dir, new_name, false, [&] {
        return ::linkat(AT_FDCWD, proc_path(inode.fd).c_str(), dir->fd, new_name, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
    });
    if (error != 0) return reply_error(req, error);
    fuse_entry_param entry{};
    entry.attr_timeout = fs.cache_timeout;
    entry.entry_timeout = fs.cache_timeout;
    if (::fstatat(inode.fd, "", &entry.attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0) return reply_error(req, errno);
    fs.table.add_lookup(inode);
    entry.ino = ino;
    fuse_reply_entry(req, &entry);
}

void remove_entry(fuse_req_t req, fuse_ino_t parent, const char* name, bool is_directory) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    reply_error(req, fs.model.journal().remove(fs.table.at(parent).shared_from_this(), name, is_directory));
}

void op_unlink(fuse_req_t req, fuse_ino_t parent, const char* name) { remove_entry(req, parent, name, false); }

void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char* name) { remove_entry(req, parent, name, true); }

void op_rename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t new_parent, const char* new_name,
               unsigned int flags) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    reply_error(req, fs.model.journal().rename(fs.table.at(parent).shared_from_this(), name,
                                               fs.table.at(new_parent).shared_from_this(), new_name, flags));
}

void op_create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    auto dir = fs.table.at(parent).shared_from_this();
    int fd = -1;
    int error = fs.model.journal().create(dir, name, false, [&] {
        fd = ::openat(dir->fd, name, backing_flags(fi->flags) | O_CREAT | O_EXCL, mode);
        return fd < 0 ? errno : 0;
    });
    const bool created = error == 0;
    if (error == EEXIST && (fi->flags & O_EXCL) == 0) {  // lost a race with another create: open what is there
        fd = ::openat(dir->fd, name, backing_flags(fi->flags));
        error = fd < 0 ? errno : 0;
    }
    if (error != 0) return reply_error(req, error);
    if (created) give_to_caller(req, dir->fd, name);
    fuse_entry_param entry;
    error = lookup_entry(fs, *dir, name, entry);
    Inode* inode = error == 0 ? &fs.table.at(entry.ino) : nullptr;
    if (inode != nullptr && created) fs.model.created(*inode);
    if (inode != nullptr && !created && (fi->flags & O_TRUNC) != 0) error = fs.model.truncate(*inode, fd, 0);
    if (error != 0) {
        ::close(fd);
        return reply_error(req, error);
    }
    reply_open_file(req, *inode, fd, fi, &entry);
}

void op_statfs(fuse_req_t req, fuse_ino_t ino) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    struct statvfs st {};
    if (::fstatvfs(fs.table.at(ino).fd, &st) != 0) return reply_error(req, errno);
    fuse_reply_statfs(req, &st);
}

fuse_lowlevel_ops make_operations() {
    fuse_lowlevel_ops ops{};
    ops.init = op_init;
    ops.lookup = op_lookup;
    ops.forget = op_forget;
    ops.forget_multi = op_forget_multi;
    ops.getattr = op_getattr;
    ops.setattr = op_setattr;
    ops.readlink = op_readlink;
    ops.mknod = op_mknod;
    ops.mkdir = op_mkdir;
    ops.symlink = op_symlink;
    ops.link = op_link;
    ops.unlink = op_unlink;
    ops.rmdir = op_rmdir;
    ops.rename = op_rename;
    ops.create = op_create;
    add_directory_handle_operations(ops);
    add_file_handle_operations(ops);
    ops.statfs = op_statfs;
    return ops;
}

}  // namespace

const fuse_lowlevel_ops& filesystem_operations() {
    static const fuse_lowlevel_ops ops = make_operations();
    return ops;
}

}  // namespace lockcheck::unsyncedfs
