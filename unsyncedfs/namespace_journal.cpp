#include "unsyncedfs/namespace_journal.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace lockcheck::unsyncedfs {
namespace {

bool is_dot_or_dotdot(const char* name) {
    return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/// The names in the directory `name` under `dir_fd`, without . and ..
std::vector<std::string> entries_of(int dir_fd, const char* name) {
    std::vector<std::string> names;
    const int fd = ::openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return names;
    DIR* dir = ::fdopendir(fd);
    if (dir == nullptr) {
        ::close(fd);
        return names;
    }
    while (const dirent* entry = ::readdir(dir))
        if (!is_dot_or_dotdot(entry->d_name)) names.emplace_back(entry->d_name);
    ::closedir(dir);
    return names;
}

/// Deletes `name` under `dir_fd`, a whole tree if it is a directory.
void remove_tree(int dir_fd, const char* name) {
    if (::unlinkat(dir_fd, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
    const int fd = ::openat(dir_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        for (const auto& child : entries_of(dir_fd, name)) remove_tree(fd, child.c_str());
        ::close(fd);
    }
    ::unlinkat(dir_fd, name, AT_REMOVEDIR);
}

void log_failure(const char* what, const std::string& name, int error) {
    std::fprintf(stderr, "lockcheck-unsyncedfs: cannot undo %s of '%s': %s\n", what, name.c_str(),
                 std::strerror(error));
}

}  // namespace

NamespaceJournal::NamespaceJournal(int attic_fd) : attic_fd_(attic_fd) { empty_attic(); }

NamespaceJournal::~NamespaceJournal() { ::close(attic_fd_); }

std::string NamespaceJournal::park(int dir_fd, const std::string& name, int& error) {
    std::string parked = "parked-" + std::to_string(next_parked_++);
    error = ::renameat(dir_fd, name.c_str(), attic_fd_, parked.c_str()) == 0 ? 0 : errno;
    return parked;
}

int NamespaceJournal::create(const Dir& dir, const std::string& name, bool is_directory,
                             const std::function<int()>& make) {
    std::lock_guard lock(mutex_);
    const int error = make();
    if (error == 0) changes_.push_back(Change{Kind::Created, dir, name, nullptr, "", "", false, is_directory});
    return error;
}

int NamespaceJournal::remove(const Dir& dir, const std::string& name, bool is_directory) {
    std::lock_guard lock(mutex_);
    struct stat st {};
    if (::fstatat(dir->fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return errno;
    if (is_directory && !S_ISDIR(st.st_mode)) return ENOTDIR;
    if (!is_directory && S_ISDIR(st.st_mode)) return EISDIR;
    if (is_directory && !entries_of(dir->fd, name.c_str()).empty()) return ENOTEMPTY;
    int error = 0;
    auto parked = park(dir->fd, name, error);
    if (error != 0) return error;
    changes_.push_back(Change{Kind::Removed, dir, name, nullptr, "", std::move(parked), is_directory, false});
    return 0;
}

int NamespaceJournal::rename(const Dir& from, const std::string& from_name, const Dir& to, const std::string& to_name,
                             unsigned int flags) {
    std::lock_guard lock(mutex_);
    if ((flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE)) != 0) return EINVAL;
    if ((flags & RENAME_EXCHANGE) != 0) {
        if (::renameat2(from->fd, from_name.c_str(), to->fd, to_name.c_str(), RENAME_EXCHANGE) != 0) return errno;
        changes_.push_back(Change{Kind::Exchanged, from, from_name, to, to_name, "", false, false});
        return 0;
    }
    struct stat source {
    }, target{};
    if (::fstatat(from->fd, from_name.c_str(), &source, AT_SYMLINK_NOFOLLOW) != 0) return errno;
    if (::fstatat(to->fd, to_name.c_str(), &target, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT) return errno;
        if (::renameat2(from->fd, from_name.c_str(), to->fd, to_name.c_str(), flags) != 0) return errno;
        changes_.push_back(Change{Kind::Renamed, from, from_name, to, to_name, "", false, false});
        return 0;
    }
    if ((flags & RENAME_NOREPLACE) != 0) return EEXIST;
    if (source.st_dev == target.st_dev && source.st_ino == target.st_ino) return 0;  // two links of one file: a no-op
    const bool target_is_directory = S_ISDIR(target.st_mode);
    if (S_ISDIR(source.st_mode) && !target_is_directory) return ENOTDIR;
    if (!S_ISDIR(source.st_mode) && target_is_directory) return EISDIR;
    if (target_is_directory && !entries_of(to->fd, to_name.c_str()).empty()) return ENOTEMPTY;

    // Keep the replaced target in the attic: a second link for a file (so
    // the target's name never disappears), the directory itself otherwise.
    std::string parked;
    int error = 0;
    if (target_is_directory) {
        parked = park(to->fd, to_name, error);
    } else {
        parked = "parked-" + std::to_string(next_parked_++);
        if (::linkat(to->fd, to_name.c_str(), attic_fd_, parked.c_str(), 0) != 0) error = errno;
    }
    if (error != 0) return error;
    if (::renameat(from->fd, from_name.c_str(), to->fd, to_name.c_str()) != 0) {
        error = errno;
        if (target_is_directory)
            ::renameat(attic_fd_, parked.c_str(), to->fd, to_name.c_str());
        else
            ::unlinkat(attic_fd_, parked.c_str(), 0);
        return error;
    }
    changes_.push_back(
        Change{Kind::Renamed, from, from_name, to, to_name, std::move(parked), target_is_directory, false});
    return 0;
}

void NamespaceJournal::delete_parked(const std::string& name, bool is_directory) {
    if (!is_directory) {
        ::unlinkat(attic_fd_, name.c_str(), 0);
        return;
    }
    remove_tree(attic_fd_, name.c_str());
}

void NamespaceJournal::commit_locked(std::size_t count) {
    for (; count > 0 && !changes_.empty(); --count) {
        const Change& change = changes_.front();
        if (!change.parked.empty()) delete_parked(change.parked, change.parked_is_directory);
        changes_.pop_front();
    }
}

void NamespaceJournal::commit_through(const Inode& dir) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = changes_.size(); i > 0; --i) {
        if (changes_[i - 1].touches(dir)) {
            commit_locked(i);
            return;
        }
    }
}

void NamespaceJournal::commit_all() {
    std::lock_guard lock(mutex_);
    commit_locked(changes_.size());
}

bool NamespaceJournal::undo(const Change& change) {
    const char* name = change.name.c_str();
    switch (change.kind) {
        case Kind::Created:
            if (::unlinkat(change.dir->fd, name, change.is_directory ? AT_REMOVEDIR : 0) == 0) return true;
            log_failure("the creation", change.name, errno);
            if (change.is_directory) remove_tree(change.dir->fd, name);  // whatever it holds was never durable
            return false;
        case Kind::Removed:
            if (::renameat2(attic_fd_, change.parked.c_str(), change.dir->fd, name, RENAME_NOREPLACE) == 0) return true;
            log_failure("the removal", change.name, errno);
            return false;
        case Kind::Renamed:
            if (::renameat2(change.to_dir->fd, change.to_name.c_str(), change.dir->fd, name, RENAME_NOREPLACE) != 0) {
                log_failure("the rename", change.name, errno);
                return false;
            }
            if (!change.parked.empty() && ::renameat2(attic_fd_, change.parked.c_str(), change.to_dir->fd,
                                                      change.to_name.c_str(), RENAME_NOREPLACE) != 0) {
                log_failure("the replacement", change.to_name, errno);
                return false;
            }
            return true;
        case Kind::Exchanged:
            if (::renameat2(change.dir->fd, name, change.to_dir->fd, change.to_name.c_str(), RENAME_EXCHANGE) == 0)
                return true;
            log_failure("the exchange", change.name, errno);
            return false;
    }
    return false;
}

std::size_t NamespaceJournal::undo_all(std::size_t& failures) {
    std::lock_guard lock(mutex_);
    const std::size_t undone = changes_.size();
    for (auto change = changes_.rbegin(); change != changes_.rend(); ++change)
        if (!undo(*change)) ++failures;
    changes_.clear();
    empty_attic();
    return undone;
}

std::size_t NamespaceJournal::pending() const {
    std::lock_guard lock(mutex_);
    return changes_.size();
}

void NamespaceJournal::empty_attic() {
    for (const auto& name : entries_of(attic_fd_, ".")) remove_tree(attic_fd_, name.c_str());
}

}  // namespace lockcheck::unsyncedfs
