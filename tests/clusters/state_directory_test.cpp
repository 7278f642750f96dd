// The state directory is private (issue 10, item 5): created 0700; one that
// another user made first, a symbolic link, a file or a directory others may
// write to is refused with one clear error; lock files are never opened
// through a symbolic link.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "host/child_process.hpp"
#include "host/file_lock.hpp"
#include "host/state_directory.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;

namespace {

constexpr uid_t kNobody = 65534;

class StateDirectory : public ::testing::Test {
protected:
    fs::path root_ = fs::temp_directory_path() / ("lockcheck-state-test-" + std::to_string(::getpid()));

    void SetUp() override {
        fs::remove_all(root_);
        fs::create_directories(root_);
        fs::permissions(root_, fs::perms(0755));  // other users may look in, as in /tmp
    }
    void TearDown() override { fs::remove_all(root_); }

    static unsigned mode_of(const fs::path& path) {
        struct stat st {};
        EXPECT_EQ(::lstat(path.c_str(), &st), 0);
        return st.st_mode & 07777;
    }

    /// The message private_directory(dir) throws with, or "" when it accepts dir.
    static std::string refusal(const fs::path& dir) {
        try {
            private_directory(dir);
            return "";
        } catch (const StateDirectoryError& e) {
            return e.what();
        }
    }
};

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST_F(StateDirectory, IsCreatedPrivate) {
    const auto dir = root_ / "state";
    EXPECT_EQ(private_directory(dir), dir);
    EXPECT_EQ(mode_of(dir), 0700u);
}

TEST_F(StateDirectory, AnOwnDirectoryOthersMayOnlyReadIsMadePrivate) {
    const auto dir = root_ / "state";
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms(0755));
    EXPECT_EQ(refusal(dir), "");
    EXPECT_EQ(mode_of(dir), 0700u);
}

TEST_F(StateDirectory, ADirectoryOfAnotherUserIsRefused) {
    const auto dir = root_ / "state";
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms(0700));
    ASSERT_EQ(::chown(dir.c_str(), kNobody, kNobody), 0) << "the test runs as root";
    const auto why = refusal(dir);
    EXPECT_NE(why.find("is owned by uid 65534, not by you"), std::string::npos) << why;
    EXPECT_NE(why.find(dir.string()), std::string::npos) << why;
}

TEST_F(StateDirectory, ASymbolicLinkIsRefusedEvenToAPrivateDirectory) {
    const auto target = root_ / "elsewhere";
    fs::create_directory(target);
    fs::permissions(target, fs::perms(0700));
    const auto dir = root_ / "state";
    fs::create_directory_symlink(target, dir);
    const auto why = refusal(dir);
    EXPECT_NE(why.find("is a symbolic link"), std::string::npos) << why;
}

TEST_F(StateDirectory, ADirectoryOthersMayWriteToIsRefused) {
    const auto dir = root_ / "state";
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms(0777));
    const auto why = refusal(dir);
    EXPECT_NE(why.find("is writable by others (mode 0777)"), std::string::npos) << why;
    EXPECT_EQ(mode_of(dir), 0777u) << "a refused directory is left as it was";
}

TEST_F(StateDirectory, AFileIsRefused) {
    const auto dir = root_ / "state";
    std::ofstream(dir) << "not a directory";
    const auto why = refusal(dir);
    EXPECT_NE(why.find("is not a directory"), std::string::npos) << why;
}

TEST_F(StateDirectory, ALockFileIsNeverOpenedThroughASymbolicLink) {
    const auto target = root_ / "victim";
    std::ofstream(target) << "untouched";
    const auto lock_path = root_ / "subnet-1.lock";
    fs::create_symlink(target, lock_path);
    try {
        FileLock::try_lock(lock_path);
        ADD_FAILURE() << "the lock was taken through a symbolic link";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("is a symbolic link"), std::string::npos) << e.what();
    }
    EXPECT_EQ(read_text(target), "untouched");
}

TEST_F(StateDirectory, ANewLockFileIsPrivateAndLocksOnce) {
    const auto lock_path = root_ / "subnet-1.lock";
    auto first = FileLock::try_lock(lock_path);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(mode_of(lock_path), 0600u);
    EXPECT_FALSE(FileLock::try_lock(lock_path).has_value()) << "the lock is held";
}

TEST_F(StateDirectory, LockcheckRefusesADirectoryAnotherUserCreatedFirstWithOneLineAndExit255) {
    // Root plays the other user: it creates nobody's state directory, world-writable.
    const auto taken = root_ / ("lockcheck-" + std::to_string(kNobody));
    fs::create_directory(taken);
    fs::permissions(taken, fs::perms(0777));
    const auto output = root_ / "output.txt";
    ChildProcess lockcheck(ChildSpec{{"setpriv", "--reuid", std::to_string(kNobody), "--regid", std::to_string(kNobody),
                                      "--clear-groups", "env", "TMPDIR=" + root_.string(), LOCKCHECK_BINARY, "clean"},
                                     std::nullopt,
                                     output,
                                     false});
    ASSERT_TRUE(lockcheck.wait_for_exit(std::chrono::seconds(20)));
    EXPECT_EQ(lockcheck.exit_status(), 255);
    const auto text = read_text(output);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    EXPECT_NE(text.find("lockcheck: error: state directory " + taken.string() + " is owned by uid 0"),
              std::string::npos)
        << text;
    EXPECT_TRUE(fs::is_empty(taken)) << "nothing was written into the other user's directory";
}

}  // namespace
