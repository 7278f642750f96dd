#include "clusters/node_data_mount.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "unsyncedfs/mounts.hpp"

namespace lockcheck {
namespace {

std::filesystem::path with_suffix(const std::filesystem::path& path, const char* suffix) {
    return path.string() + suffix;
}

/// fsyncs `path` (a regular file or a directory, never followed through a
/// symlink). Throws UnsyncedFsError when it fails, unless it is gone.
void sync_path(const std::filesystem::path& path, bool directory) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (directory ? O_DIRECTORY : 0));
    if (fd < 0) {
        if (errno == ENOENT) return;  // removed by its server meanwhile
        throw UnsyncedFsError("cannot open " + path.string() + " to sync it: " + std::strerror(errno));
    }
    const int rc = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (rc != 0) throw UnsyncedFsError("cannot sync " + path.string() + ": " + std::strerror(error));
}

}  // namespace

NodeDataMount::NodeDataMount(Options options) : options_(std::move(options)) {}

NodeDataMount::~NodeDataMount() { unmount(); }

std::filesystem::path NodeDataMount::backing_dir() const { return with_suffix(options_.data_dir, ".durable"); }

std::optional<std::string> NodeDataMount::failure() const {
    if (mount_)
        if (auto reason = mount_->failure()) return reason;
    return failure_;
}

void NodeDataMount::notify(const std::string& message) {
    if (!reported_.exchange(true) && options_.on_failure) options_.on_failure(message);
}

void NodeDataMount::report(const std::string& message) {
    if (!failure_) failure_ = message;
    notify(message);
}

void NodeDataMount::mount() {
    if (const auto reason = failure()) throw UnsyncedFsError(*reason);
    if (mount_) return;
    const auto backing = backing_dir();
    try {
        if (!std::filesystem::exists(backing)) {
            if (std::filesystem::exists(options_.data_dir)) {
                std::filesystem::rename(options_.data_dir, backing);  // written before the server ran: durable
            } else {
                std::filesystem::create_directories(backing);
                std::filesystem::permissions(backing, std::filesystem::perms::owner_all);
            }
        }
        std::filesystem::create_directories(options_.data_dir);
    } catch (const std::filesystem::filesystem_error& e) {
        throw UnsyncedFsError("cannot prepare " + options_.data_dir.string() +
                              " for the lose-unsynced filesystem: " + e.what());
    }
    UnsyncedMountOptions o;
    o.daemon = options_.daemon;
    o.backing = backing;
    o.mountpoint = options_.data_dir;
    o.fsname = options_.fsname;
    o.metadata = options_.metadata_rule;
    o.log = options_.log;
    o.on_failure = [this](const std::string& message) { notify(message); };
    try {
        mount_ = std::make_unique<UnsyncedMount>(std::move(o));
    } catch (const UnsyncedFsError& e) {
        report(e.what());
        throw;
    }
}

void NodeDataMount::require_mounted() const {
    if (const auto reason = failure()) throw UnsyncedFsError(*reason);
    if (!mount_)
        throw UnsyncedFsError(options_.data_dir.string() + " is not on the lose-unsynced filesystem (not mounted)");
}

PowerLossSummary NodeDataMount::power_loss(const unsyncedfs::Tear& tear) {
    require_mounted();
    try {
        return mount_->power_loss(tear);
    } catch (const UnsyncedFsError& e) {
        report(e.what());
        throw;
    }
}

void NodeDataMount::set_disk_errors(const unsyncedfs::DiskErrors& errors) {
    require_mounted();
    try {
        mount_->set_disk_errors(errors);
    } catch (const UnsyncedFsError& e) {
        report(e.what());
        throw;
    }
}

void NodeDataMount::write_back() {
    require_mounted();
    std::vector<std::filesystem::path> directories{options_.data_dir};
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(options_.data_dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        const auto type = it->symlink_status(ec).type();
        if (type == std::filesystem::file_type::regular) sync_path(it->path(), false);
        if (type == std::filesystem::file_type::directory) directories.push_back(it->path());
        ec.clear();  // an entry removed meanwhile
    }
    for (auto d = directories.rbegin(); d != directories.rend(); ++d) sync_path(*d, true);  // deepest first
}

void NodeDataMount::unmount() noexcept {
    if (mount_) {
        if (auto reason = mount_->failure(); reason && !failure_) failure_ = std::move(reason);
        mount_.reset();  // unmounts, lazily when busy
    }
    if (is_mount_point(options_.data_dir)) return;  // could not unmount: move nothing
    const auto backing = backing_dir();
    std::error_code ec;
    if (!std::filesystem::exists(backing, ec)) return;
    std::filesystem::remove(options_.data_dir, ec);  // the empty mount point; kept if something wrote into it
    if (!std::filesystem::exists(options_.data_dir, ec)) std::filesystem::rename(backing, options_.data_dir, ec);
    std::filesystem::remove_all(with_suffix(backing, ".attic"), ec);  // entries the server removed
}

std::unique_ptr<NodeDataMount> make_node_data_mount(const std::optional<UnsyncedDataOptions>& options,
                                                    const std::string& node, const std::filesystem::path& node_dir,
                                                    const std::filesystem::path& data_dir,
                                                    const std::string& metadata_rule) {
    if (!options || data_dir.empty()) return nullptr;
    return std::make_unique<NodeDataMount>(NodeDataMount::Options{
        options->daemon, std::filesystem::absolute(data_dir), unsyncedfs_fsname(options->run_id, node),
        options->metadata_rule.empty() ? metadata_rule : options->metadata_rule, node_dir / "unsyncedfs.log",
        options->on_failure});
}

}  // namespace lockcheck
