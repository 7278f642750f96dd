// Every durability rule of the lose-unsynced filesystem through a real FUSE
// mount: each rule program (tests/unsyncedfs/rules/*.c) makes its changes on the
// mount, the filesystem loses power and is mounted again, and the program
// checks that exactly the durable changes survived - on the new mount and in
// the backing directory itself, which must hold the durable state alone.
// Where a change must be lost, the check is first run before the power loss
// and must fail: it can tell the two states apart.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "host/system_command.hpp"
#include "tests/unsyncedfs/unsyncedfs_fixture.hpp"

namespace lockcheck::testing {
namespace {

struct Rule {
    std::string program;
    std::string metadata;
    bool loses_something;  ///< the "after" check fails while nothing was lost yet
};

std::ostream& operator<<(std::ostream& out, const Rule& rule) { return out << rule.program << " " << rule.metadata; }

class RuleTest : public UnsyncedFsTest, public ::testing::WithParamInterface<Rule> {
protected:
    CommandResult phase(const std::string& which, const std::filesystem::path& dir) {
        const Rule& rule = GetParam();
        return run_command(
            {std::string(UNSYNCEDFS_RULES_DIR).append("/").append(rule.program), which, dir.string(), rule.metadata});
    }
};

TEST_P(RuleTest, OnlyWhatWasDurableSurvivesAPowerLoss) {
    UnsyncedMount mount(options(GetParam().metadata));
    const auto before = phase("before", mountpoint());
    ASSERT_EQ(before.exit_code, 0) << before.output;
    if (GetParam().loses_something) {
        const auto premature = phase("after", mountpoint());
        ASSERT_EQ(premature.exit_code, 1) << "the check passed before the power loss: it cannot fail\n"
                                          << premature.output;
    }
    const auto summary = mount.power_loss();
    if (GetParam().loses_something) {
        EXPECT_GT(summary.files_restored + summary.changes_undone, 0u);
    }
    const auto after = phase("after", mountpoint());
    EXPECT_EQ(after.exit_code, 0) << after.output;
    mount.unmount();
    const auto backing_after = phase("after", backing());
    EXPECT_EQ(backing_after.exit_code, 0) << "in the backing directory: " << backing_after.output;
    EXPECT_TRUE(std::filesystem::is_empty(backing().string() + ".attic")) << "the attic keeps something";
}

INSTANTIATE_TEST_SUITE_P(
    Rules, RuleTest,
    ::testing::Values(
        Rule{"write_fsync_write", "dir-fsync", true}, Rule{"fdatasync_overwrite", "dir-fsync", true},
        Rule{"rename_without_dir_fsync", "dir-fsync", true}, Rule{"rename_with_dir_fsync", "dir-fsync", false},
        Rule{"rename_over_target", "dir-fsync", true}, Rule{"unlink_without_dir_fsync", "dir-fsync", true},
        Rule{"unlink_with_dir_fsync", "dir-fsync", false}, Rule{"rmdir_without_dir_fsync", "dir-fsync", true},
        Rule{"create_without_dir_fsync", "dir-fsync", true}, Rule{"create_without_dir_fsync", "any-fsync", false},
        Rule{"mkdir_then_child", "dir-fsync", true}, Rule{"truncate", "dir-fsync", true},
        Rule{"o_dsync", "dir-fsync", true}, Rule{"mmap_msync", "dir-fsync", true},
        Rule{"fallocate_prealloc", "dir-fsync", true}, Rule{"concurrency", "dir-fsync", true}),
    [](const ::testing::TestParamInfo<Rule>& rule) {
        return rule.param.program + (rule.param.metadata == "any-fsync" ? "_any_fsync" : "");
    });

// A torn power loss through the mount (unsyncedfs/torn_write.hpp): the
// daemon reads what the tear keeps from the backing file before it restores
// the rest, and the next mount shows exactly the durable bytes, the earlier
// unsynced write and the kept prefix of the last write.
using TornPowerLossTest = UnsyncedFsTest;

TEST_F(TornPowerLossTest, KeepsTheEarlierWriteAndAPrefixOfTheLastThroughTheMount) {
    constexpr std::uint64_t kSeed = 42;
    UnsyncedMount mount(options());
    const auto file = mountpoint() / "log";
    const int fd = ::open(file.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    const std::string durable(6000, 'd'), earlier(100, 'e'), last(3000, 'l');
    ASSERT_EQ(::pwrite(fd, durable.data(), durable.size(), 0), static_cast<ssize_t>(durable.size()));
    ASSERT_EQ(::fsync(fd), 0);
    const int dir = ::open(mountpoint().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT_EQ(::fsync(dir), 0);  // the file's creation is durable too
    ::close(dir);
    ASSERT_EQ(::pwrite(fd, earlier.data(), earlier.size(), 1000), static_cast<ssize_t>(earlier.size()));
    ASSERT_EQ(::pwrite(fd, last.data(), last.size(), 5000), static_cast<ssize_t>(last.size()));  // grows to 8000
    ::close(fd);

    const auto summary = mount.power_loss(unsyncedfs::Tear{unsyncedfs::TearMode::LastWritePrefix, kSeed});
    EXPECT_EQ(summary.files_torn, 1u);
    const std::size_t kept = unsyncedfs::torn_prefix_length(kSeed, 5000, last.size());
    std::string expected = durable;
    expected.replace(1000, earlier.size(), earlier);
    expected.resize(std::max<std::size_t>(6000, 5000 + kept));
    expected.replace(5000, kept, std::string(kept, 'l'));
    std::ifstream in(file, std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), expected) << kept << " bytes of the last write kept";
}

}  // namespace
}  // namespace lockcheck::testing
