#include "unsyncedfs/directory_handles.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <vector>

namespace lockcheck::unsyncedfs {
namespace {

/// An open directory: the stream and where the kernel's last readdir stopped.
struct OpenDirectory {
    DIR* stream = nullptr;
    dirent* pending = nullptr;  ///< read from the stream but not yet handed to the kernel
    off_t offset = 0;
};

OpenDirectory& open_directory(const fuse_file_info* fi) {
    return *reinterpret_cast<OpenDirectory*>(static_cast<std::uintptr_t>(fi->fh));
}

void op_opendir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    const int fd = ::openat(fs.table.at(ino).fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return reply_error(req, errno);
    auto directory = std::make_unique<OpenDirectory>();
    directory->stream = ::fdopendir(fd);
    if (directory->stream == nullptr) {
        const int error = errno;
        ::close(fd);
        return reply_error(req, error);
    }
    fi->fh = static_cast<uint64_t>(reinterpret_cast<std::uintptr_t>(directory.get()));
    if (fuse_reply_open(req, fi) != 0) {
        ::closedir(directory->stream);
        return;
    }
    directory.release();
}

void op_readdir(fuse_req_t req, fuse_ino_t, size_t size, off_t offset, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    OpenDirectory& directory = open_directory(fi);
    if (offset != directory.offset) {
        ::seekdir(directory.stream, offset);
        directory.pending = nullptr;
        directory.offset = offset;
    }
    std::vector<char> buffer(size);
    size_t used = 0;
    int error = 0;
    for (;;) {
        if (directory.pending == nullptr) {
            errno = 0;
            directory.pending = ::readdir(directory.stream);
            if (directory.pending == nullptr) {
                error = errno;
                break;
            }
        }
        struct stat st {};
        st.st_ino = directory.pending->d_ino;
        st.st_mode = static_cast<mode_t>(directory.pending->d_type) << 12;
        const off_t next = directory.pending->d_off;
        const size_t entry_size =
            fuse_add_direntry(req, buffer.data() + used, size - used, directory.pending->d_name, &st, next);
        if (entry_size > size - used) break;
        used += entry_size;
        directory.pending = nullptr;
        directory.offset = next;
    }
    if (error != 0 && used == 0) return reply_error(req, error);
    fuse_reply_buf(req, buffer.data(), used);
}

void op_releasedir(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
    std::unique_ptr<OpenDirectory> directory(&open_directory(fi));
    ::closedir(directory->stream);
    reply_error(req, 0);
}

void op_fsyncdir(fuse_req_t req, fuse_ino_t ino, int, fuse_file_info*) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    reply_error(req, fs.model.sync_directory(fs.table.at(ino)));
}

}  // namespace

void add_directory_handle_operations(fuse_lowlevel_ops& ops) {
    ops.opendir = op_opendir;
    ops.readdir = op_readdir;
    ops.releasedir = op_releasedir;
    ops.fsyncdir = op_fsyncdir;
}

}  // namespace lockcheck::unsyncedfs
