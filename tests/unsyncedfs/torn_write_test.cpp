// Torn writes in the lose-unsynced filesystem's model, no FUSE
// (unsyncedfs/torn_write.hpp): the seeded choices themselves, and exactly
// which bytes of constructed unsynced writes FileUndo keeps under each tear.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "unsyncedfs/control_channel.hpp"
#include "unsyncedfs/file_undo.hpp"
#include "unsyncedfs/torn_write.hpp"

namespace lockcheck::unsyncedfs {
namespace {

namespace fs = std::filesystem;

constexpr off_t kSector = FileUndo::kPageSize;

// ---- the seeded choices ----

TEST(TornWriteChoices, APrefixIsAProperNonEmptyPartAndTheSameForTheSameSeed) {
    std::set<std::size_t> lengths;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const std::size_t kept = torn_prefix_length(seed, 4096, 100);
        EXPECT_GE(kept, 1u);
        EXPECT_LT(kept, 100u);
        EXPECT_EQ(kept, torn_prefix_length(seed, 4096, 100));
        lengths.insert(kept);
    }
    EXPECT_GT(lengths.size(), 50u) << "the seed hardly moves the cut";
    EXPECT_EQ(torn_prefix_length(3, 0, 1), 0u);
    EXPECT_EQ(torn_prefix_length(3, 0, 0), 0u);
}

TEST(TornWriteChoices, AboutHalfTheSectorsSurviveAndTheSeedDecidesWhich) {
    int survivors = 0;
    int differ = 0;
    for (off_t sector = 0; sector < 1000; ++sector) {
        survivors += sector_survives(11, sector) ? 1 : 0;
        differ += sector_survives(11, sector) != sector_survives(12, sector) ? 1 : 0;
        EXPECT_EQ(sector_survives(11, sector), sector_survives(11, sector));
    }
    EXPECT_GT(survivors, 400);
    EXPECT_LT(survivors, 600);
    EXPECT_GT(differ, 400);
}

TEST(TornWriteChoices, TheControlChannelsWordsReadBackAndBadOnesAreRefused) {
    EXPECT_EQ(tear_from_arguments("")->mode, TearMode::None);
    EXPECT_EQ(tear_arguments(Tear{}), "");
    for (const Tear tear : {Tear{TearMode::LastWritePrefix, 0}, Tear{TearMode::Sectors, 18446744073709551615ULL}}) {
        const auto back = tear_from_arguments(" " + tear_arguments(tear));
        ASSERT_TRUE(back) << tear_arguments(tear);
        EXPECT_EQ(back->mode, tear.mode);
        EXPECT_EQ(back->seed, tear.seed);
    }
    for (const char* bad : {"torn=sectors", "torn=halves seed=1", "seed=1 torn=sectors", "torn=sectors seed=-1",
                            "torn=sectors seed=1 extra", "torn=sectors seed=18446744073709551616"})
        EXPECT_FALSE(tear_from_arguments(bad)) << bad;
}

// ---- what FileUndo keeps ----

class TornFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "lockcheck-torn-write-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        std::ofstream(root_ / "f", std::ios::binary) << durable_;
        fd_ = ::open((root_ / "f").c_str(), O_RDWR | O_CLOEXEC);
        ASSERT_GE(fd_, 0);
    }
    void TearDown() override {
        ::close(fd_);
        fs::remove_all(root_);
    }
    void pwrite_text(const std::string& text, off_t offset) {
        undo_.before_write(fd_, offset, static_cast<off_t>(text.size()));
        ASSERT_EQ(::pwrite(fd_, text.data(), text.size(), offset), static_cast<ssize_t>(text.size()));
    }
    std::string content() const {
        std::ifstream in(root_ / "f", std::ios::binary);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    /// Starts the file over at its durable content, synced.
    void reset() {
        ASSERT_EQ(::ftruncate(fd_, 0), 0);
        ASSERT_EQ(::pwrite(fd_, durable_.data(), durable_.size(), 0), static_cast<ssize_t>(durable_.size()));
        undo_.synced();
    }
    /// `base` with `bytes` written at `offset` (growing it with zeros as a file does).
    static std::string overlay(std::string base, off_t offset, const std::string& bytes) {
        const auto at = static_cast<std::size_t>(offset);
        if (base.size() < at + bytes.size()) base.resize(at + bytes.size(), '\0');
        std::copy(bytes.begin(), bytes.end(), base.begin() + static_cast<std::ptrdiff_t>(at));
        return base;
    }

    const std::string durable_ = std::string(10000, 'd');
    fs::path root_;
    int fd_ = -1;
    FileUndo undo_;
};

TEST_F(TornFileTest, LastWritePrefixKeepsTheEarlierWritesAndTheLastWritesPrefixOnly) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        reset();
        pwrite_text(std::string(300, 'x'), 5000);
        pwrite_text(std::string(50, 'y'), 9990);  // the last write, growing the file by 40 bytes
        const std::size_t kept = torn_prefix_length(seed, 9990, 50);
        const std::string expected =
            overlay(overlay(durable_, 5000, std::string(300, 'x')), 9990, std::string(kept, 'y'));
        EXPECT_TRUE(undo_.restore(fd_, Tear{TearMode::LastWritePrefix, seed}));
        EXPECT_EQ(content(), expected) << "seed " << seed << ", " << kept << " bytes of the last write kept";
        EXPECT_FALSE(undo_.tracking());
    }
}

TEST_F(TornFileTest, TheTornTailOfTheLastWriteShowsWhatItOverwroteNotTheDurableBytes) {
    const std::uint64_t seed = 5;
    pwrite_text(std::string(300, 'x'), 5000);
    pwrite_text(std::string(300, 'z'), 5000);  // overwrites the unsynced x's
    const std::size_t kept = torn_prefix_length(seed, 5000, 300);
    const std::string expected = overlay(overlay(durable_, 5000, std::string(300, 'x')), 5000, std::string(kept, 'z'));
    undo_.restore(fd_, Tear{TearMode::LastWritePrefix, seed});
    EXPECT_EQ(content(), expected);
}

TEST_F(TornFileTest, LastWritePrefixLosesEverythingWhenTheLastChangeWasNoWrite) {
    pwrite_text(std::string(300, 'x'), 5000);
    undo_.before_truncate(fd_, 6000);
    ASSERT_EQ(::ftruncate(fd_, 6000), 0);
    EXPECT_FALSE(undo_.restore(fd_, Tear{TearMode::LastWritePrefix, 1}));
    EXPECT_EQ(content(), durable_);
}

TEST_F(TornFileTest, SectorsKeepsExactlyTheSurvivingSectorsNewBytes) {
    // Writes over sectors 0-3: the durable file ends inside sector 2; sector 3 is new.
    const std::string written(static_cast<std::size_t>(3 * kSector + 100), 'a');
    std::set<std::string> outcomes;
    for (std::uint64_t seed = 0; seed < 64; ++seed) {
        reset();
        pwrite_text(written.substr(0, 2 * kSector), 0);
        pwrite_text(written.substr(2 * kSector), 2 * kSector);
        std::string expected = durable_;
        for (off_t sector = 0; sector < 4; ++sector)
            if (sector_survives(seed, sector)) {
                const auto begin = static_cast<std::size_t>(sector * kSector);
                expected = overlay(expected, sector * kSector,
                                   written.substr(begin, std::min<std::size_t>(kSector, written.size() - begin)));
            }
        const bool torn = undo_.restore(fd_, Tear{TearMode::Sectors, seed});
        EXPECT_EQ(content(), expected) << "seed " << seed;
        EXPECT_EQ(torn, expected != durable_) << "seed " << seed;
        outcomes.insert(expected);
    }
    EXPECT_GT(outcomes.size(), 8u) << "the seeds hardly vary which sectors survive";
}

TEST_F(TornFileTest, SectorsLeavesAHoleOfZerosBeforeASurvivingSectorPastTheDurableEnd) {
    std::uint64_t seed = 0;
    while (sector_survives(seed, 3) || !sector_survives(seed, 4)) ++seed;  // sector 3 lost, sector 4 kept
    pwrite_text(std::string(static_cast<std::size_t>(2 * kSector), 'n'), 3 * kSector);
    std::string expected = overlay(durable_, 4 * kSector, std::string(kSector, 'n'));
    undo_.restore(fd_, Tear{TearMode::Sectors, seed});
    EXPECT_EQ(content(), expected);
    EXPECT_EQ(content().substr(10000, static_cast<std::size_t>(4 * kSector - 10000)),
              std::string(static_cast<std::size_t>(4 * kSector - 10000), '\0'));
}

TEST_F(TornFileTest, WithoutATearNothingUnsyncedSurvives) {
    pwrite_text(std::string(300, 'x'), 5000);
    pwrite_text(std::string(50, 'y'), 9990);
    EXPECT_FALSE(undo_.restore(fd_, Tear{}));
    EXPECT_EQ(content(), durable_);
}

TEST(TornWriteControl, APowerLossWithAnUnreadableTearIsRefusedAndAReadableOneCountsTornFiles) {
    std::string pattern = (fs::temp_directory_path() / "lockcheck-torn-control-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    const fs::path root = pattern;
    fs::create_directory(root / "backing");
    fs::create_directory(root / "attic");
    {
        InodeTable table(::open((root / "backing").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        const int attic_fd = ::open((root / "attic").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        DurabilityModel model(table, attic_fd, MetadataRule::DirectoryFsync);
        EXPECT_EQ(answer_command("power-loss torn=halves seed=1", model).rfind("error ", 0), 0u);
        EXPECT_EQ(answer_command("power-loss torn=sectors seed=1", model),
                  "ok power-loss files-restored=0 files-torn=0 changes-undone=0 failures=0");
        ::close(attic_fd);
    }
    fs::remove_all(root);
}

}  // namespace
}  // namespace lockcheck::unsyncedfs
