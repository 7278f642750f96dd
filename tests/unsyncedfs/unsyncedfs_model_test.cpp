// The lose-unsynced filesystem's durability model on plain directories, no
// FUSE: what FileUndo restores, and what NamespaceJournal undoes and commits.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "unsyncedfs/file_undo.hpp"
#include "unsyncedfs/namespace_journal.hpp"

namespace lockcheck::unsyncedfs {
namespace {

namespace fs = std::filesystem;

class ScratchDirectory : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "lockcheck-unsyncedfs-model-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
    }
    void TearDown() override { fs::remove_all(root_); }

    fs::path path(const std::string& name) const { return root_ / name; }
    static std::string read(const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    static void write(const fs::path& p, const std::string& content) { std::ofstream(p, std::ios::binary) << content; }

    fs::path root_;
};

// ---- FileUndo ----

class FileUndoTest : public ScratchDirectory {
protected:
    void SetUp() override {
        ScratchDirectory::SetUp();
        write(path("f"), std::string(10000, 'd'));
        fd_ = ::open(path("f").c_str(), O_RDWR | O_CLOEXEC);
        ASSERT_GE(fd_, 0);
    }
    void TearDown() override {
        ::close(fd_);
        ScratchDirectory::TearDown();
    }
    void pwrite_text(const std::string& text, off_t offset) {
        undo_.before_write(fd_, offset, static_cast<off_t>(text.size()));
        ASSERT_EQ(::pwrite(fd_, text.data(), text.size(), offset), static_cast<ssize_t>(text.size()));
    }

    int fd_ = -1;
    FileUndo undo_;
};

TEST_F(FileUndoTest, RestoresOverwrittenBytesAcrossPagesAndDropsAppends) {
    pwrite_text(std::string(200, 'x'), 4000);  // pages 0 and 1
    pwrite_text("appended", 10000);
    EXPECT_TRUE(undo_.tracking());
    EXPECT_EQ(undo_.saved_pages(), 2u);
    undo_.restore(fd_);
    EXPECT_EQ(read(path("f")), std::string(10000, 'd'));
    EXPECT_FALSE(undo_.tracking());
}

TEST_F(FileUndoTest, AWriteAfterASyncIsTheOnlyOneUndone) {
    pwrite_text("first", 0);
    undo_.synced();
    pwrite_text("SECOND", 2);
    undo_.restore(fd_);
    EXPECT_EQ(read(path("f")), "first" + std::string(9995, 'd'));
}

TEST_F(FileUndoTest, RestoresATruncatedTail) {
    undo_.before_truncate(fd_, 10);
    ASSERT_EQ(::ftruncate(fd_, 10), 0);
    pwrite_text("grown", 50);  // the hole between 10 and 50 reads as zeros now
    undo_.restore(fd_);
    EXPECT_EQ(read(path("f")), std::string(10000, 'd'));
}

TEST_F(FileUndoTest, ZeroPagesAreRestoredAsZeros) {
    ASSERT_EQ(::ftruncate(fd_, 0), 0);
    ASSERT_EQ(::ftruncate(fd_, 3 * FileUndo::kPageSize), 0);  // a hole: pages of zeros
    undo_.synced();
    pwrite_text("record", 2 * FileUndo::kPageSize + 10);
    undo_.restore(fd_);
    const auto content = read(path("f"));
    ASSERT_EQ(content.size(), static_cast<std::size_t>(3 * FileUndo::kPageSize));
    EXPECT_TRUE(content == std::string(content.size(), '\0')) << "an unsynced record survived";
}

TEST_F(FileUndoTest, ANewFileLosesEverything) {
    undo_.start_empty();
    pwrite_text("never synced", 0);
    undo_.restore(fd_);
    EXPECT_EQ(read(path("f")), "");
}

TEST_F(FileUndoTest, GrowingKeepsTheDurableSize) {
    undo_.before_grow(fd_);
    ASSERT_EQ(::fallocate(fd_, 0, 0, 20000), 0);
    undo_.restore(fd_);
    EXPECT_EQ(fs::file_size(path("f")), 10000u);
}

// ---- NamespaceJournal ----

class JournalTest : public ScratchDirectory {
protected:
    void SetUp() override {
        ScratchDirectory::SetUp();
        fs::create_directories(path("data/a"));
        fs::create_directories(path("data/b"));
        fs::create_directories(path("attic"));
        journal_ = std::make_unique<NamespaceJournal>(::open(path("attic").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        a_ = directory("data/a");
        b_ = directory("data/b");
    }
    std::shared_ptr<Inode> directory(const std::string& name) {
        const int fd = ::open(path(name).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        struct stat st {};
        ::fstat(fd, &st);
        return std::make_shared<Inode>(fd, st);
    }
    int create_file(const std::shared_ptr<Inode>& dir, const std::string& name, const std::string& content = "") {
        return journal_->create(dir, name, false, [&] {
            const int fd = ::openat(dir->fd, name.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
            if (fd < 0) return errno;
            if (::write(fd, content.data(), content.size()) < 0) return errno;
            ::close(fd);
            return 0;
        });
    }
    std::size_t undo_all() {
        std::size_t failures = 0;
        const auto undone = journal_->undo_all(failures);
        EXPECT_EQ(failures, 0u);
        EXPECT_TRUE(fs::is_empty(path("attic")));
        return undone;
    }

    std::unique_ptr<NamespaceJournal> journal_;
    std::shared_ptr<Inode> a_, b_;
};

TEST_F(JournalTest, UndoesCreationsNotCommitted) {
    ASSERT_EQ(create_file(a_, "x"), 0);
    ASSERT_EQ(journal_->create(a_, "dir", true, [&] { return ::mkdirat(a_->fd, "dir", 0755) == 0 ? 0 : errno; }), 0);
    EXPECT_EQ(undo_all(), 2u);
    EXPECT_TRUE(fs::is_empty(path("data/a")));
}

TEST_F(JournalTest, AFailedCreationIsNotJournaled) {
    ASSERT_EQ(create_file(a_, "x"), 0);
    EXPECT_EQ(create_file(a_, "x"), EEXIST);
    EXPECT_EQ(journal_->pending(), 1u);
}

TEST_F(JournalTest, PutsBackWhatAnUnlinkRemoved) {
    write(path("data/a/kept"), "durable");
    ASSERT_EQ(journal_->remove(a_, "kept", false), 0);
    EXPECT_FALSE(fs::exists(path("data/a/kept")));
    EXPECT_FALSE(fs::is_empty(path("attic")));
    undo_all();
    EXPECT_EQ(read(path("data/a/kept")), "durable");
}

TEST_F(JournalTest, ACommittedUnlinkEmptiesTheAttic) {
    write(path("data/a/gone"), "x");
    ASSERT_EQ(journal_->remove(a_, "gone", false), 0);
    journal_->commit_through(*a_);
    EXPECT_TRUE(fs::is_empty(path("attic")));
    EXPECT_EQ(undo_all(), 0u);
    EXPECT_FALSE(fs::exists(path("data/a/gone")));
}

TEST_F(JournalTest, RefusesToRemoveTheWrongKindOrAFullDirectory) {
    write(path("data/a/file"), "x");
    fs::create_directories(path("data/a/full/inside"));
    EXPECT_EQ(journal_->remove(a_, "file", true), ENOTDIR);
    EXPECT_EQ(journal_->remove(a_, "full", false), EISDIR);
    EXPECT_EQ(journal_->remove(a_, "full", true), ENOTEMPTY);
    EXPECT_EQ(journal_->remove(a_, "missing", false), ENOENT);
    EXPECT_EQ(journal_->pending(), 0u);
}

TEST_F(JournalTest, UndoesARenameAcrossDirectoriesThatReplacedAFile) {
    write(path("data/a/src"), "new");
    write(path("data/b/dst"), "old");
    ASSERT_EQ(journal_->rename(a_, "src", b_, "dst", 0), 0);
    EXPECT_EQ(read(path("data/b/dst")), "new");
    undo_all();
    EXPECT_EQ(read(path("data/a/src")), "new");
    EXPECT_EQ(read(path("data/b/dst")), "old");
}

TEST_F(JournalTest, UndoesARenameThatReplacedAnEmptyDirectory) {
    fs::create_directories(path("data/a/src/child"));
    fs::create_directories(path("data/a/dst"));
    ASSERT_EQ(journal_->rename(a_, "src", a_, "dst", 0), 0);
    EXPECT_TRUE(fs::exists(path("data/a/dst/child")));
    undo_all();
    EXPECT_TRUE(fs::exists(path("data/a/src/child")));
    EXPECT_TRUE(fs::is_empty(path("data/a/dst")));
}

TEST_F(JournalTest, RenameFlagsAndEdgeCases) {
    write(path("data/a/one"), "1");
    write(path("data/a/two"), "2");
    ASSERT_EQ(::link(path("data/a/one").c_str(), path("data/a/hardlink").c_str()), 0);
    EXPECT_EQ(journal_->rename(a_, "one", a_, "two", RENAME_NOREPLACE), EEXIST);
    EXPECT_EQ(journal_->rename(a_, "one", a_, "hardlink", 0), 0);  // two links of one file: nothing happens
    EXPECT_EQ(journal_->pending(), 0u);
    ASSERT_EQ(journal_->rename(a_, "one", a_, "two", RENAME_EXCHANGE), 0);
    EXPECT_EQ(read(path("data/a/one")), "2");
    undo_all();
    EXPECT_EQ(read(path("data/a/one")), "1");
    EXPECT_EQ(read(path("data/a/two")), "2");
}

TEST_F(JournalTest, ADirectorySyncCommitsThePrefixUpToItsLastChange) {
    ASSERT_EQ(create_file(a_, "first"), 0);
    ASSERT_EQ(create_file(b_, "second"), 0);
    ASSERT_EQ(create_file(a_, "third"), 0);
    journal_->commit_through(*b_);  // commits "first" (earlier) and "second", not "third"
    EXPECT_EQ(journal_->pending(), 1u);
    EXPECT_EQ(undo_all(), 1u);
    EXPECT_TRUE(fs::exists(path("data/a/first")));
    EXPECT_TRUE(fs::exists(path("data/b/second")));
    EXPECT_FALSE(fs::exists(path("data/a/third")));
}

TEST_F(JournalTest, UndoesInReverseOrder) {
    write(path("data/a/f"), "v1");
    ASSERT_EQ(journal_->rename(a_, "f", b_, "g", 0), 0);
    ASSERT_EQ(create_file(a_, "f", "v2"), 0);  // a new file under the old name
    ASSERT_EQ(journal_->remove(b_, "g", false), 0);
    EXPECT_EQ(undo_all(), 3u);
    EXPECT_EQ(read(path("data/a/f")), "v1");
    EXPECT_FALSE(fs::exists(path("data/b/g")));
}

TEST_F(JournalTest, EmptiesAnAtticLeftByAKilledDaemon) {
    journal_.reset();
    fs::create_directories(path("attic/parked-7/sub"));
    write(path("attic/parked-8"), "x");
    journal_ = std::make_unique<NamespaceJournal>(::open(path("attic").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    EXPECT_TRUE(fs::is_empty(path("attic")));
}

}  // namespace
}  // namespace lockcheck::unsyncedfs
