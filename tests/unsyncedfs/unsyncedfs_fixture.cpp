#include "tests/unsyncedfs/unsyncedfs_fixture.hpp"

#include <signal.h>
#include <stdlib.h>

#include "unsyncedfs/availability.hpp"
#include "unsyncedfs/mounts.hpp"

namespace lockcheck::testing {

std::filesystem::path unsyncedfs_daemon() { return UNSYNCEDFS_DAEMON; }

void UnsyncedFsTest::SetUp() {
    ::signal(SIGPIPE, SIG_IGN);  // as the controller does: a dead daemon's control pipe must not kill the test
    const auto reason = unsyncedfs_unavailable_reason(unsyncedfs_daemon());
    ASSERT_FALSE(reason.has_value()) << "the lose-unsynced filesystem cannot run here: " << *reason
                                     << " (these tests need root and /dev/fuse; they fail rather than skip)";
    std::string pattern = (std::filesystem::temp_directory_path() / "lockcheck-unsyncedfs-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    scratch_ = pattern;
    std::filesystem::create_directories(backing());
}

void UnsyncedFsTest::TearDown() {
    if (scratch_.empty()) return;
    if (is_mount_point(mountpoint())) {
        ADD_FAILURE() << mountpoint() << " is still mounted at the end of the test";
        unmount_path(mountpoint());
    }
    if (!HasFailure()) std::filesystem::remove_all(scratch_);  // a failed test's directory stays, for its daemon.log
}

UnsyncedMountOptions UnsyncedFsTest::options(const std::string& metadata) const {
    UnsyncedMountOptions o;
    o.daemon = unsyncedfs_daemon();
    o.backing = backing();
    o.mountpoint = mountpoint();
    o.metadata = metadata;
    o.log = log();
    return o;
}

}  // namespace lockcheck::testing
