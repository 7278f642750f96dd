#include "unsyncedfs/file_handles.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>

namespace lockcheck::unsyncedfs {

OpenFile& open_file(const fuse_file_info* fi) {
    return *reinterpret_cast<OpenFile*>(static_cast<std::uintptr_t>(fi->fh));
}

int backing_flags(int flags) {
    if ((flags & O_ACCMODE) == O_WRONLY) flags = (flags & ~O_ACCMODE) | O_RDWR;
    return (flags & ~(O_APPEND | O_DIRECT | O_NOFOLLOW | O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY)) | O_CLOEXEC;
}

void reply_open_file(fuse_req_t req, Inode& inode, int fd, fuse_file_info* fi, const fuse_entry_param* created) {
    auto file = std::make_unique<OpenFile>(OpenFile{fd, &inode});
    fi->fh = static_cast<uint64_t>(reinterpret_cast<std::uintptr_t>(file.get()));
    fi->keep_cache = 1;
    const int failed = created != nullptr ? fuse_reply_create(req, created, fi) : fuse_reply_open(req, fi);
    if (failed != 0) {
        ::close(fd);
        return;
    }
    file.release();
}

namespace {

void op_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    Inode& inode = fs.table.at(ino);
    const int fd = ::open(proc_path(inode.fd).c_str(), backing_flags(fi->flags));
    if (fd < 0) return reply_error(req, errno);
    if ((fi->flags & O_TRUNC) != 0) {
        if (const int error = fs.model.truncate(inode, fd, 0); error != 0) {
            ::close(fd);
            return reply_error(req, error);
        }
    }
    reply_open_file(req, inode, fd, fi, nullptr);
}

void op_read(fuse_req_t req, fuse_ino_t, size_t size, off_t offset, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    fuse_bufvec buffer = FUSE_BUFVEC_INIT(size);
    buffer.buf[0].flags = static_cast<fuse_buf_flags>(FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK);
    buffer.buf[0].fd = open_file(fi).fd;
    buffer.buf[0].pos = offset;
    fuse_reply_data(req, &buffer, FUSE_BUF_SPLICE_MOVE);
}

void op_write(fuse_req_t req, fuse_ino_t, const char* data, size_t size, off_t offset, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    OpenFile& file = open_file(fi);
    size_t written = 0;
    const int error = fs.model.write(*file.inode, file.fd, data, size, offset, written);
    if (error != 0) return reply_error(req, error);
    fuse_reply_write(req, written);
}

void op_flush(fuse_req_t req, fuse_ino_t, fuse_file_info*) { reply_error(req, 0); }

void op_release(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
    std::unique_ptr<OpenFile> file(&open_file(fi));
    ::close(file->fd);
    reply_error(req, 0);
}

void op_fsync(fuse_req_t req, fuse_ino_t, int datasync, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    OpenFile& file = open_file(fi);
    reply_error(req, fs.model.sync_file(*file.inode, file.fd, datasync != 0));
}

void op_fallocate(fuse_req_t req, fuse_ino_t, int mode, off_t offset, off_t length, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    OpenFile& file = open_file(fi);
    reply_error(req, fs.model.fallocate(*file.inode, file.fd, mode, offset, length));
}

void op_lseek(fuse_req_t req, fuse_ino_t, off_t offset, int whence, fuse_file_info* fi) {
    FilesystemContext& fs = context(req);
    const auto serving = fs.model.serve();
    if (!serving) return reply_error(req, EIO);
    const off_t result = ::lseek(open_file(fi).fd, offset, whence);
    if (result < 0) return reply_error(req, errno);
    fuse_reply_lseek(req, result);
}

}  // namespace

void add_file_handle_operations(fuse_lowlevel_ops& ops) {
    ops.open = op_open;
    ops.read = op_read;
    ops.write = op_write;
    ops.flush = op_flush;
    ops.release = op_release;
    ops.fsync = op_fsync;
    ops.fallocate = op_fallocate;
    ops.lseek = op_lseek;
}

}  // namespace lockcheck::unsyncedfs
