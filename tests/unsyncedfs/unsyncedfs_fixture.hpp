// What the lose-unsynced filesystem's FUSE tests share: a scratch directory
// with a backing directory and a mount point, mount options for it, and the
// check that this machine can mount at all. These tests need root and
// /dev/fuse; without them they fail (CI machines have both), never skip.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "unsyncedfs/unsynced_mount.hpp"

namespace lockcheck::testing {

class UnsyncedFsTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    /// Options for a mount of backing() on mountpoint() with `metadata`.
    UnsyncedMountOptions options(const std::string& metadata = "dir-fsync") const;

    std::filesystem::path scratch() const { return scratch_; }
    std::filesystem::path backing() const { return scratch_ / "data"; }
    std::filesystem::path mountpoint() const { return scratch_ / "mnt"; }
    std::filesystem::path log() const { return scratch_ / "daemon.log"; }

private:
    std::filesystem::path scratch_;
};

/// The daemon binary this build made.
std::filesystem::path unsyncedfs_daemon();

}  // namespace lockcheck::testing
