// The damage corrupt-file does to a data file (clusters/file_damage.hpp), on
// files built here: whole RESP records cut at their boundary (a torn tail
// too), bytes cut, a range zeroed, bits flipped at seeded positions, an older
// copy put back; and how a server's data file is found (clusters/data_file.hpp).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "clusters/data_file.hpp"
#include "clusters/file_damage.hpp"
#include "clusters/servers/server_data_files.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using lockcheck::testing::ScratchDir;

namespace {

void write_file(const std::filesystem::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
}

std::string read_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::string kSelect = "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n";
const std::string kSetA = "*5\r\n$3\r\nSET\r\n$4\r\nlock\r\n$1\r\nA\r\n$4\r\nPXAT\r\n$13\r\n1796000000000\r\n";
const std::string kDel = "*2\r\n$3\r\nDEL\r\n$4\r\nlock\r\n";

}  // namespace

TEST(FileDamage, RespBoundariesAreWhereEachCompleteCommandStarts) {
    const std::string aof = kSelect + kSetA + kDel;
    EXPECT_EQ(record_boundaries(aof, RecordFormat::Resp),
              (std::vector<std::uint64_t>{0, kSelect.size(), kSelect.size() + kSetA.size(), aof.size()}));
    const std::string torn = kSelect + kSetA.substr(0, 20);
    EXPECT_EQ(record_boundaries(torn, RecordFormat::Resp), (std::vector<std::uint64_t>{0, kSelect.size()}))
        << "a torn command is no record";
    EXPECT_EQ(record_boundaries("*2\r\n$3\r\nDEL\r\n$40\r\nlock\r\n", RecordFormat::Resp),
              (std::vector<std::uint64_t>{0})) << "a bulk length past the end tears the record";
    EXPECT_TRUE(record_boundaries(aof, RecordFormat::None).empty());
}

TEST(FileDamage, AMultiExecBlockIsOneRecord) {
    const std::string multi = "*1\r\n$5\r\nMULTI\r\n", incr = "*2\r\n$4\r\nINCR\r\n$1\r\nf\r\n",
                      exec = "*1\r\n$4\r\nexec\r\n";
    const std::string aof = kSelect + multi + kSetA + incr + exec + kDel;
    const std::uint64_t block_end = kSelect.size() + multi.size() + kSetA.size() + incr.size() + exec.size();
    EXPECT_EQ(record_boundaries(aof, RecordFormat::Resp),
              (std::vector<std::uint64_t>{0, kSelect.size(), block_end, aof.size()}))
        << "no boundary inside the block, whatever the case of EXEC";
    EXPECT_EQ(record_boundaries(kSelect + multi + kSetA, RecordFormat::Resp),
              (std::vector<std::uint64_t>{0, kSelect.size()}))
        << "a block without its EXEC is torn";
    ScratchDir dir("file-damage");
    const auto file = dir.path() / "appendonly.aof.1.incr.aof";
    write_file(file, aof);
    cut_records(file, RecordFormat::Resp, 2);
    EXPECT_EQ(read_file(file), kSelect) << "the DEL and the whole transaction before it";
}

TEST(FileDamage, CutRecordsDropsTheLastCommandsAtTheirBoundary) {
    ScratchDir dir("file-damage");
    const auto aof = dir.path() / "appendonly.aof.1.incr.aof";
    write_file(aof, kSelect + kSetA);
    const auto said = cut_records(aof, RecordFormat::Resp, 1);
    EXPECT_EQ(read_file(aof), kSelect) << "the lock's SET is gone, the SELECT before it kept whole";
    EXPECT_NE(said.find("cut " + std::to_string(kSetA.size()) + " bytes (1 record)"), std::string::npos) << said;

    write_file(aof, kSelect + kSetA + kDel.substr(0, 9));
    EXPECT_NE(cut_records(aof, RecordFormat::Resp, 1).find("and a torn tail"), std::string::npos);
    EXPECT_EQ(read_file(aof), kSelect) << "the torn tail goes with the last whole record";

    write_file(aof, kSelect);
    cut_records(aof, RecordFormat::Resp, 5);
    EXPECT_EQ(read_file(aof), "") << "more records asked for than the file holds: all of them";
    EXPECT_THROW(cut_records(aof, RecordFormat::None, 1), std::invalid_argument);
}

TEST(FileDamage, CutBytesZeroAndFlipActOnTheRangeFromTheEnd) {
    ScratchDir dir("file-damage");
    const auto file = dir.path() / "log.1";
    write_file(file, "0123456789");
    EXPECT_EQ(cut_bytes(file, 3), "cut 3 bytes off the end: 10 -> 7 bytes");
    EXPECT_EQ(read_file(file), "0123456");
    EXPECT_EQ(cut_bytes(file, 100), "cut 7 bytes off the end: 7 -> 0 bytes");

    write_file(file, "0123456789");
    EXPECT_EQ(zero_range(file, 2, 3), "zeroed bytes 5-8 of 10");
    EXPECT_EQ(read_file(file), std::string("01234\0\0\0" "89", 10)) << "the size stays";

    write_file(file, std::string(64, 'a'));
    const auto said = flip_bits(file, 0, 8, 3, 42);
    const auto flipped = read_file(file);
    ASSERT_EQ(flipped.size(), 64u);
    int changed_bits = 0;
    for (std::size_t i = 0; i < flipped.size(); ++i) {
        const unsigned diff = static_cast<unsigned char>(flipped[i]) ^ static_cast<unsigned char>('a');
        if (diff != 0) {
            EXPECT_GE(i, 56u) << "only the last 8 bytes are in the range";
        }
        changed_bits += __builtin_popcount(diff);
    }
    EXPECT_EQ(changed_bits, 3) << said;
    write_file(file, std::string(64, 'a'));
    EXPECT_EQ(flip_bits(file, 0, 8, 3, 42), said) << "the seed decides the positions";
}

TEST(FileDamage, AnOlderCopyReplacesTheFile) {
    ScratchDir dir("file-damage");
    const auto file = dir.path() / "db";
    const auto older = dir.path() / "db.older";
    write_file(older, "before");
    write_file(file, "before and after");
    EXPECT_EQ(restore_copy(file, older), "put back an older copy: 16 -> 6 bytes");
    EXPECT_EQ(read_file(file), "before");
    EXPECT_THROW(restore_copy(file, dir.path() / "missing"), std::runtime_error);
}

TEST(DataFile, TheNewestMatchingFileCounts) {
    ScratchDir dir("data-file");
    const auto folder = dir.path() / "appendonlydir";
    std::filesystem::create_directories(folder);
    const DataFile incr = redis_data_files().front();
    EXPECT_EQ(incr.name, "aof-incr");
    EXPECT_EQ(find_data_file(dir.path(), incr), std::nullopt);
    write_file(folder / "appendonly.aof.1.incr.aof", "old");
    write_file(folder / "appendonly.aof.1.base.rdb", "base");
    write_file(folder / "appendonly.aof.2.incr.aof", "new");
    std::filesystem::last_write_time(folder / "appendonly.aof.1.incr.aof",
                                     std::filesystem::file_time_type::clock::now() - std::chrono::seconds(10));
    EXPECT_EQ(find_data_file(dir.path(), incr), folder / "appendonly.aof.2.incr.aof");
    EXPECT_TRUE(file_name_matches("log.1a", "log.*"));
    EXPECT_FALSE(file_name_matches("snapshot.1a", "log.*"));
    EXPECT_FALSE(file_name_matches("ab", "a*b*"));
}

TEST(DataFile, EveryServerListsItsLogFirstAndCorruptFileChoicesNameEachOnce) {
    const auto choices = data_file_choices();
    EXPECT_EQ(choices.front(), kServerLogFile);
    for (const auto* files : {&redis_data_files(), &zookeeper_data_files(), &etcd_data_files(), &mariadb_data_files()})
        for (const auto& f : *files) EXPECT_EQ(std::count(choices.begin(), choices.end(), f.name), 1) << f.name;
    EXPECT_EQ(zookeeper_data_files().front().name, "zk-txn-log");
    EXPECT_EQ(etcd_data_files().front().name, "etcd-wal");
    EXPECT_EQ(mariadb_data_files().front().name, "mariadb-redo");
}
