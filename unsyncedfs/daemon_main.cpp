// lockcheck-unsyncedfs: the lose-unsynced filesystem's daemon (docs/nemesis.md,
// "The lose-unsynced filesystem"). Mounts MOUNTPOINT as a passthrough to
// BACKING, prints "ready" on stdout once mounted, answers control commands
// on stdin (control_channel.hpp) and unmounts and exits at EOF on stdin, on
// SIGTERM/SIGINT/SIGHUP, or when someone unmounts it.
// Exit 0 after an unmount, 254 for bad arguments, 255 when it cannot mount.
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "unsyncedfs/control_channel.hpp"
#include "unsyncedfs/durability_model.hpp"
#include "unsyncedfs/fuse_handlers.hpp"
#include "unsyncedfs/inode_table.hpp"

namespace {

using namespace lockcheck::unsyncedfs;

constexpr int kBadInput = 254;
constexpr int kFailed = 255;

struct Options {
    std::string backing;
    std::string mountpoint;
    std::string attic;
    std::string fsname = "lockcheck-unsyncedfs";
    std::string metadata = "dir-fsync";
    unsigned threads = 8;
    double cache_timeout = 60.0;
};

int fail(int code, const std::string& message) {
    std::fprintf(stderr, "lockcheck-unsyncedfs: %s\n", message.c_str());
    return code;
}

/// The control thread: commands until EOF, then unmount and stop the session loop.
void control_until_eof(DurabilityModel& model, std::string mountpoint) {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // so the SIGTERM below wakes the session loop's thread
    serve_control(STDIN_FILENO, STDOUT_FILENO, model);
    ::umount2(mountpoint.c_str(), MNT_DETACH);
    ::kill(::getpid(), SIGTERM);
}

int serve(const Options& options, MetadataRule rule) {
    const int root_fd = ::open(options.backing.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0)
        return fail(kBadInput, "cannot open the backing directory " + options.backing + ": " + std::strerror(errno));
    ::mkdir(options.attic.c_str(), 0700);
    const int attic_fd = ::open(options.attic.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (attic_fd < 0) return fail(kBadInput, "cannot open the attic " + options.attic + ": " + std::strerror(errno));
    struct stat backing_st {
    }, attic_st{};
    ::fstat(root_fd, &backing_st);
    ::fstat(attic_fd, &attic_st);
    if (backing_st.st_dev != attic_st.st_dev)
        return fail(kBadInput, "the attic " + options.attic + " is not on the backing directory's filesystem");

    InodeTable table(root_fd);
    DurabilityModel model(table, attic_fd, rule);
    FilesystemContext context{table, model, options.cache_timeout};

    const std::string mount_options =
        "fsname=" + options.fsname + ",subtype=lockcheck-unsyncedfs,allow_other,default_permissions";
    const char* argv[] = {"lockcheck-unsyncedfs", "-o", mount_options.c_str()};
    fuse_args args = FUSE_ARGS_INIT(3, const_cast<char**>(argv));
    fuse_session* session = fuse_session_new(&args, &filesystem_operations(), sizeof(fuse_lowlevel_ops), &context);
    if (session == nullptr) return fail(kFailed, "cannot create the FUSE session");
    fuse_set_signal_handlers(session);
    if (fuse_session_mount(session, options.mountpoint.c_str()) != 0) {
        fuse_remove_signal_handlers(session);
        fuse_session_destroy(session);
        return fail(kFailed, "cannot mount " + options.mountpoint + " (needs root and /dev/fuse)");
    }
    std::printf("ready\n");
    std::fflush(stdout);
    std::thread(control_until_eof, std::ref(model), options.mountpoint).detach();

    fuse_loop_config* config = fuse_loop_cfg_create();
    fuse_loop_cfg_set_max_threads(config, options.threads);
    fuse_loop_cfg_set_idle_threads(config, options.threads);
    fuse_session_loop_mt(session, config);
    fuse_loop_cfg_destroy(config);
    fuse_session_unmount(session);
    fuse_remove_signal_handlers(session);
    fuse_session_destroy(session);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{
        "The lose-unsynced filesystem: a FUSE passthrough that keeps what is not durable "
        "so that a power loss (\"power-loss\" on stdin) can throw it away."};
    app.add_option("--backing", options.backing, "directory holding the data")->required();
    app.add_option("--mountpoint", options.mountpoint, "directory to mount over")->required();
    app.add_option("--attic", options.attic,
                   "directory on the backing filesystem for removed entries (default: BACKING.attic)");
    app.add_option("--fsname", options.fsname, "the mount's name in /proc/mounts");
    app.add_option("--metadata", options.metadata, "when directory changes become durable: dir-fsync or any-fsync");
    app.add_option("--threads", options.threads, "FUSE worker threads")->check(CLI::Range(1u, 64u));
    app.add_option("--cache-timeout", options.cache_timeout, "seconds the kernel may cache entries and attributes");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return fail(kBadInput, e.what());
    }
    const auto rule = metadata_rule_from_string(options.metadata);
    if (!rule) return fail(kBadInput, "--metadata must be dir-fsync or any-fsync, not '" + options.metadata + "'");
    if (options.fsname.find_first_of(", \t\n\\") != std::string::npos)
        return fail(kBadInput, "--fsname must not contain commas, blanks or backslashes");
    auto backing = std::filesystem::absolute(options.backing).lexically_normal();
    if (!backing.has_filename()) backing = backing.parent_path();  // "dir/" names dir
    options.backing = backing.string();
    if (options.attic.empty()) options.attic = options.backing + ".attic";
    std::error_code ec;
    const auto attic = std::filesystem::weakly_canonical(options.attic, ec).string();
    const auto backing_real = std::filesystem::weakly_canonical(options.backing, ec).string();
    if (attic == backing_real || attic.rfind(backing_real + "/", 0) == 0)
        return fail(kBadInput, "the attic " + options.attic + " must not be inside the backing directory");
    ::umask(0);  // the kernel applied the caller's umask already
    return serve(options, *rule);
}
