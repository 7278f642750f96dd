// Disk errors in the lose-unsynced filesystem's model, no FUSE
// (unsyncedfs/disk_errors.hpp): the control channel's words, a write
// refused with ENOSPC that changes nothing, an fsync refused with EIO that
// drops the file's unsynced writes, and both healed.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "unsyncedfs/control_channel.hpp"
#include "unsyncedfs/disk_errors.hpp"
#include "unsyncedfs/durability_model.hpp"

namespace lockcheck::unsyncedfs {
namespace {

namespace fs = std::filesystem;

TEST(DiskErrorWords, ReadBackAndRefuseWhatTheyDoNotKnow) {
    const auto both = disk_errors_from_arguments(" write=enospc fsync=eio");
    ASSERT_TRUE(both);
    EXPECT_EQ(both->fsync_errno, EIO);
    EXPECT_EQ(both->write_errno, ENOSPC);
    EXPECT_EQ(disk_errors_arguments(*both), "fsync=eio write=enospc");
    const auto healed = disk_errors_from_arguments("");
    ASSERT_TRUE(healed);
    EXPECT_EQ(disk_errors_arguments(*healed), "fsync=ok write=ok");
    for (const char* bad : {"fsync=enospc", "write=eio", "fsync", "fsync=eio fsync=ok", "read=eio"})
        EXPECT_FALSE(disk_errors_from_arguments(bad)) << bad;
}

class DiskErrorModelTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "lockcheck-disk-error-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        fs::create_directory(root_ / "backing");
        fs::create_directory(root_ / "attic");
        std::ofstream(root_ / "backing" / "f", std::ios::binary) << "durable";
        table_ = std::make_unique<InodeTable>(::open((root_ / "backing").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        attic_fd_ = ::open((root_ / "attic").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        model_ = std::make_unique<DurabilityModel>(*table_, attic_fd_, MetadataRule::DirectoryFsync);
        const int path_fd = ::open((root_ / "backing" / "f").c_str(), O_PATH | O_CLOEXEC);
        struct stat st {};
        ASSERT_EQ(::fstat(path_fd, &st), 0);
        file_ = &table_->add_lookup(path_fd, st);
        fd_ = ::open((root_ / "backing" / "f").c_str(), O_RDWR | O_CLOEXEC);
        ASSERT_GE(fd_, 0);
    }
    void TearDown() override {
        ::close(fd_);
        model_.reset();
        table_.reset();
        ::close(attic_fd_);
        fs::remove_all(root_);
    }
    int write(const std::string& text, off_t offset) {
        std::size_t written = 0;
        return model_->write(*file_, fd_, text.data(), text.size(), offset, written);
    }
    std::string content() const {
        std::ifstream in(root_ / "backing" / "f", std::ios::binary);
        return {std::istreambuf_iterator<char>(in), {}};
    }

    fs::path root_;
    std::unique_ptr<InodeTable> table_;
    int attic_fd_ = -1;
    std::unique_ptr<DurabilityModel> model_;
    Inode* file_ = nullptr;
    int fd_ = -1;
};

TEST_F(DiskErrorModelTest, AFullDiskRefusesWritesAndChangesNothingUntilHealed) {
    EXPECT_EQ(answer_command("disk-error write=enospc", *model_), "ok disk-error fsync=ok write=enospc");
    EXPECT_EQ(write(" more", 7), ENOSPC);
    EXPECT_EQ(content(), "durable");
    EXPECT_EQ(model_->sync_file(*file_, fd_, true), 0) << "syncs still work";
    EXPECT_EQ(answer_command("disk-error", *model_), "ok disk-error fsync=ok write=ok");
    EXPECT_EQ(write(" more", 7), 0);
    EXPECT_EQ(content(), "durable more");
}

TEST_F(DiskErrorModelTest, AFailedFsyncDropsTheUnsyncedWritesAndALaterOneKeepsOnlyWhatCameAfter) {
    ASSERT_EQ(write(" lost", 7), 0);
    model_->set_disk_errors(DiskErrors{EIO, 0});
    EXPECT_EQ(model_->sync_file(*file_, fd_, false), EIO);
    EXPECT_EQ(content(), "durable") << "the failed writeback's pages are dropped";
    EXPECT_EQ(write(" kept", 7), 0) << "writes still work";
    model_->set_disk_errors(DiskErrors{});
    EXPECT_EQ(model_->sync_file(*file_, fd_, false), 0);
    EXPECT_EQ(model_->status().unsynced_files, 0u);
    EXPECT_EQ(content(), "durable kept");
}

TEST_F(DiskErrorModelTest, UnknownWordsAreRefusedAndChangeNothing) {
    model_->set_disk_errors(DiskErrors{EIO, 0});
    EXPECT_EQ(answer_command("disk-error fsync=maybe", *model_).rfind("error ", 0), 0u);
    EXPECT_EQ(model_->disk_errors().fsync_errno, EIO);
}

}  // namespace
}  // namespace lockcheck::unsyncedfs
