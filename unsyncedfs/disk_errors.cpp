#include "unsyncedfs/disk_errors.hpp"

#include <cerrno>
#include <set>
#include <sstream>

namespace lockcheck::unsyncedfs {

std::optional<DiskErrors> disk_errors_from_arguments(const std::string& arguments) {
    std::istringstream words(arguments);
    DiskErrors errors;
    std::set<std::string> seen;
    for (std::string word; words >> word;) {
        const auto equals = word.find('=');
        const std::string key = word.substr(0, equals);
        const std::string value = equals == std::string::npos ? "" : word.substr(equals + 1);
        if (!seen.insert(key).second) return std::nullopt;
        if (key == "fsync" && (value == "eio" || value == "ok"))
            errors.fsync_errno = value == "eio" ? EIO : 0;
        else if (key == "write" && (value == "enospc" || value == "ok"))
            errors.write_errno = value == "enospc" ? ENOSPC : 0;
        else
            return std::nullopt;
    }
    return errors;
}

std::string disk_errors_arguments(const DiskErrors& errors) {
    return std::string("fsync=") + (errors.fsync_errno != 0 ? "eio" : "ok") +
           " write=" + (errors.write_errno != 0 ? "enospc" : "ok");
}

}  // namespace lockcheck::unsyncedfs
