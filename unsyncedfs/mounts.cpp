#include "unsyncedfs/mounts.hpp"

#include <sys/mount.h>

#include <cerrno>
#include <fstream>
#include <sstream>

namespace lockcheck {
namespace {

/// /proc/mounts writes space, tab, newline and backslash as \040, \011, \012, \134.
std::string decode_mount_field(const std::string& field) {
    std::string decoded;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size()) {
            const std::string octal = field.substr(i + 1, 3);
            if (octal.find_first_not_of("01234567") == std::string::npos) {
                decoded += static_cast<char>(std::stoi(octal, nullptr, 8));
                i += 3;
                continue;
            }
        }
        decoded += field[i];
    }
    return decoded;
}

}  // namespace

std::string unsyncedfs_fsname(const std::string& run_id, const std::string& node) {
    return "lockcheck:" + run_id + ":" + node;
}

std::vector<MountEntry> read_mount_table() {
    std::vector<MountEntry> entries;
    std::ifstream table("/proc/self/mounts");
    std::string line;
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string fsname, path, type;
        if (fields >> fsname >> path >> type)
            entries.push_back(MountEntry{decode_mount_field(fsname), decode_mount_field(path), type});
    }
    return entries;
}

std::filesystem::path mount_table_path(const std::filesystem::path& path) {
    auto absolute = std::filesystem::absolute(path).lexically_normal();
    if (!absolute.has_filename()) absolute = absolute.parent_path();
    std::error_code ec;
    const auto parent = std::filesystem::weakly_canonical(absolute.parent_path(), ec);
    return ec ? absolute : parent / absolute.filename();
}

bool is_mount_point(const std::filesystem::path& path) {
    const auto wanted = mount_table_path(path);
    for (const auto& entry : read_mount_table())
        if (entry.path == wanted) return true;
    return false;
}

int unmount_path(const std::filesystem::path& path) {
    if (::umount2(path.c_str(), 0) == 0) return 0;
    if (errno != EBUSY) return errno;
    return ::umount2(path.c_str(), MNT_DETACH) == 0 ? 0 : errno;
}

std::vector<std::string> unmount_run_filesystems(const std::string& run_id) noexcept {
    std::vector<std::string> unmounted;
    try {
        const std::string prefix = unsyncedfs_fsname(run_id, "");
        for (const auto& entry : read_mount_table()) {
            if (entry.type != kUnsyncedFsType || entry.fsname.rfind(prefix, 0) != 0) continue;
            if (::umount2(entry.path.c_str(), MNT_DETACH) == 0) unmounted.push_back("mount " + entry.path.string());
        }
    } catch (...) {}
    return unmounted;
}

}  // namespace lockcheck
