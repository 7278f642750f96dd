// Where lockcheck finds its helpers: beside its binary (a build directory) or
// in ../lib/lockcheck/ (an installed package), the build directory first.
#include "core/install_layout.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/scratch_dir.hpp"

namespace lockcheck {
namespace {

namespace fs = std::filesystem;

class InstallLayoutTest : public ::testing::Test {
protected:
    void SetUp() override {
        fs::create_directories(root_ / "usr" / "bin");
        fs::create_directories(root_ / "usr" / "lib" / "lockcheck");
    }
    static void touch(const fs::path& file) { std::ofstream(file) << "x"; }

    testing::ScratchDir scratch_{"install-layout"};
    fs::path root_ = scratch_.path();
};

TEST_F(InstallLayoutTest, FindsAHelperOfAnInstalledPackageInLibLockcheck) {
    touch(root_ / "usr" / "lib" / "lockcheck" / "libclockshift.so");
    EXPECT_EQ(find_helper(root_ / "usr" / "bin" / "lockcheck", "libclockshift.so"),
              root_ / "usr" / "lib" / "lockcheck" / "libclockshift.so");
}

TEST_F(InstallLayoutTest, PrefersTheHelperBesideTheBinary) {
    touch(root_ / "usr" / "lib" / "lockcheck" / "lockcheck-unsyncedfs");
    touch(root_ / "usr" / "bin" / "lockcheck-unsyncedfs");
    EXPECT_EQ(find_helper(root_ / "usr" / "bin" / "lockcheck", "lockcheck-unsyncedfs"),
              root_ / "usr" / "bin" / "lockcheck-unsyncedfs");
}

TEST_F(InstallLayoutTest, NoHelperIsAnEmptyPath) {
    EXPECT_TRUE(find_helper(root_ / "usr" / "bin" / "lockcheck", "libclockshift.so").empty());
}

TEST_F(InstallLayoutTest, TheDataDirectoryIsShareLockcheckBesideBin) {
    EXPECT_EQ(installed_data_dir(root_ / "usr" / "bin" / "lockcheck").lexically_normal(),
              (root_ / "usr" / "share" / "lockcheck").lexically_normal());
}

}  // namespace
}  // namespace lockcheck
