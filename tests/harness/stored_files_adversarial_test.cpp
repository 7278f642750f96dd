// Stored files that are hostile or damaged (issue 33, items 2, 5, 6, 7, 15):
// a lease past any bound, a results.json field of the wrong type, files that
// are no regular files (/dev/zero, a FIFO, a directory, /proc/self/mem), a
// line without end, an index that cannot be written, and a torn last record
// in `export`. Each is one line and the documented exit code, and the rest of
// the store is still served.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/padded_line_reader.hpp"
#include "run/exit_codes.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/history_test_support.hpp"
#include "tests/support/scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using lockcheck::testing::kAcquire;
using lockcheck::testing::kGranted;
using lockcheck::testing::run_cli;

namespace {

void write_file(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

/// A run directory under `store` (spec.json, a two-op history.jsonl) named like a run's.
fs::path make_run(const fs::path& store, const std::string& stamp) {
    const auto run = store / "s" / (stamp + "-abcdef");
    fs::create_directories(run);
    write_file(run / "spec.json", R"({"name": "s"})");
    write_file(run / "history.jsonl", kAcquire + "\n" + kGranted + "\n");
    return run;
}

std::size_t lines_of(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

// Item 2: a ttl_ms of 2^44 printed "expired up to 854558029294.6 ms before".
TEST(StoredFiles, ALeaseLongerThanAnHourIsRefusedWithFileAndLine) {
    for (const std::string ttl :
         {"3600001", "17592186044416", "9007199254740992", "4611686018427387904", "9223372036854775807"}) {
        const auto line =
            R"({"index":0,"time":100,"process":0,"type":"invoke","f":"acquire","key":"k","owner":"w0-1","ttl_ms":)" +
            ttl + "}\n";
        EXPECT_EQ(lockcheck::testing::history_error_of(line),
                  "h.jsonl:1: field 'ttl_ms' must be from 1 to 3600000 ms (1 h), not " + ttl);
    }
    EXPECT_EQ(
        lockcheck::testing::history_error_of(
            R"({"index":0,"time":100,"process":0,"type":"invoke","f":"acquire","key":"k","owner":"w0-1","ttl_ms":3600000})"
            "\n"),
        "");
}

// Item 5: one results.json with "matched": "x" broke `index` for the whole store.
TEST(StoredFiles, AResultsFieldOfTheWrongTypeMakesThatRunUnreadableAndTheIndexGoesOn) {
    const lockcheck::testing::ScratchDir store("stored-files");
    const auto bad = make_run(store.path(), "20261101T000000Z");
    write_file(bad / "results.json", R"({"valid": true, "expectation": {"matched": "x", "applies": "y"}})");
    const auto good = make_run(store.path(), "20261102T000000Z");
    write_file(good / "results.json", R"({"valid": false})");
    const auto ran = run_cli({"index", "--store", store.path().string()});
    EXPECT_EQ(ran.exit_code, exit_code::kValid) << ran.err;
    EXPECT_EQ(lines_of(ran.err), 1u) << ran.err;
    EXPECT_NE(ran.err.find((bad / "results.json").string() + " has a field of the wrong type"), std::string::npos)
        << ran.err;
    EXPECT_EQ(ran.err.find("json.exception"), std::string::npos) << ran.err;
    std::ifstream in(store.path() / "index.html");
    const std::string html{std::istreambuf_iterator<char>(in), {}};
    EXPECT_NE(html.find("unreadable"), std::string::npos);
    EXPECT_NE(html.find("20261102T000000Z"), std::string::npos) << "the other run is listed";
    const auto check = run_cli({"check", bad.string()});
    EXPECT_EQ(check.exit_code, exit_code::kValid) << check.err;
    EXPECT_EQ(check.err.find("json.exception"), std::string::npos) << check.err;
}

// Items 6, 7 and 15: /dev/zero grew memory without end, a FIFO hung, a directory and /proc/self/mem
// read as "no ops" (UNKNOWN, exit 2).
TEST(StoredFiles, AHistoryThatIsNoRegularFileOrCannotBeReadIsBadInput) {
    const lockcheck::testing::ScratchDir store("stored-files");
    const auto run = make_run(store.path(), "20261103T000000Z");
    fs::remove(run / "history.jsonl");
    const auto expect_refused = [&](const std::string& path, const std::string& words) {
        const auto ran = run_cli({"check", path});
        EXPECT_EQ(ran.exit_code, exit_code::kBadInput) << path << ": " << ran.err;
        EXPECT_NE(ran.err.find(words), std::string::npos) << ran.err;
        EXPECT_EQ(lines_of(ran.err), 1u) << ran.err;
    };
    expect_refused("/dev/zero", "/dev/zero: is a character device, not a regular file");
    fs::create_symlink("/dev/zero", run / "history.jsonl");
    expect_refused(run.string(), "history.jsonl: is a character device, not a regular file");
    fs::remove(run / "history.jsonl");
    ASSERT_EQ(::mkfifo((run / "history.jsonl").c_str(), 0600), 0);
    expect_refused(run.string(), "history.jsonl: is a FIFO, not a regular file");
    fs::remove(run / "history.jsonl");
    fs::create_directory(run / "history.jsonl");
    expect_refused(run.string(), "history.jsonl: is a directory, not a regular file");
    expect_refused("/proc/self/mem", "/proc/self/mem: cannot be read (a read failed after line 0)");
    EXPECT_FALSE(fs::exists(run / "results.json"));
}

TEST(StoredFiles, AResultsJsonThatIsAFifoOrDevZeroIsUnreadableNotAHang) {
    const lockcheck::testing::ScratchDir store("stored-files");
    const auto fifo = make_run(store.path(), "20261104T000000Z");
    ASSERT_EQ(::mkfifo((fifo / "results.json").c_str(), 0600), 0);
    const auto zero = make_run(store.path(), "20261105T000000Z");
    fs::create_symlink("/dev/zero", zero / "results.json");
    const auto ran = run_cli({"index", "--store", store.path().string()});
    EXPECT_EQ(ran.exit_code, exit_code::kValid) << ran.err;
    EXPECT_EQ(lines_of(ran.err), 2u) << ran.err;
    EXPECT_NE(ran.err.find((fifo / "results.json").string() + " is not a JSON file"), std::string::npos) << ran.err;
}

TEST(StoredFiles, ALineWithoutEndStopsAtTheReadersBound) {
    std::istringstream endless(std::string(10'000, 'a'));
    PaddedLineReader lines(endless, 256, 1024);
    PaddedLineReader::Line line;
    EXPECT_THROW(lines.next(line), LineTooLongError);
    std::istringstream fits(std::string(1000, 'a') + "\n");
    PaddedLineReader bounded(fits, 256, 1024);
    ASSERT_TRUE(bounded.next(line));
    EXPECT_EQ(line.text.size(), 1000u);
}

// Item 15: a failed index write left .index.html.tmp; export dropped a torn last record silently.
TEST(StoredFiles, AnIndexThatCannotBeWrittenLeavesNoTemporaryFile) {
    const lockcheck::testing::ScratchDir store("stored-files");
    make_run(store.path(), "20261106T000000Z");
    fs::create_directories(store.path() / "index.html" / "in-the-way");
    const auto ran = run_cli({"index", "--store", store.path().string()});
    EXPECT_NE(ran.exit_code, exit_code::kValid);
    EXPECT_EQ(lines_of(ran.err), 1u) << ran.err;
    EXPECT_FALSE(fs::exists(store.path() / ".index.html.tmp"));
}

TEST(StoredFiles, ExportNotesATornLastRecordAsCheckDoes) {
    const lockcheck::testing::ScratchDir dir("stored-files");
    write_file(dir.path() / "h.jsonl", kAcquire + "\n" + kGranted + "\n" + R"({"index":2,"ti)");
    const auto ran = run_cli({"export", "--edn", (dir.path() / "h.jsonl").string(), "-o", "-"});
    EXPECT_EQ(ran.exit_code, exit_code::kValid) << ran.err;
    EXPECT_NE(ran.err.find("ends in a partly written record (the controller died mid-write); it was ignored"),
              std::string::npos)
        << ran.err;
}
