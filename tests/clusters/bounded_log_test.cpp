// A bounded log (host/bounded_log.hpp) keeps the head and the tail of what
// was written, with one line saying how much was cut between them, and stays
// bounded after every write (issue 33, item 14: a client flooding stderr grew
// its worker log to 201 MB in 3 s).
#include "host/bounded_log.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

namespace {

std::string read_all(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST(BoundedLog, WhatFitsIsKeptWhole) {
    const lockcheck::testing::ScratchDir dir("bounded-log");
    const auto path = dir.path() / "worker.log";
    {
        BoundedLog log(path, 100, 100);
        log.append("first line\n");
        log.append(std::string(150, 'x') + "\n");  // past the head, within the tail
        EXPECT_EQ(log.cut_bytes(), 0U);
    }
    EXPECT_EQ(read_all(path), "first line\n" + std::string(150, 'x') + "\n");
}

TEST(BoundedLog, AFloodKeepsTheHeadAndTheTailAndSaysHowMuchWasCut) {
    const lockcheck::testing::ScratchDir dir("bounded-log");
    const auto path = dir.path() / "worker.log";
    std::string written;
    {
        BoundedLog log(path, 1000, 1000);
        for (int i = 0; i < 20000; ++i) {
            const std::string line = "stderr line " + std::to_string(i) + "\n";
            log.append(line);
            written += line;
            ASSERT_LE(std::filesystem::file_size(path), 1000U + 200U + 2 * 1000U) << "after line " << i;
        }
    }
    const std::string text = read_all(path);
    ASSERT_EQ(text.substr(0, 1000), written.substr(0, 1000)) << "the head is kept as written";
    std::smatch cut;
    ASSERT_TRUE(std::regex_search(text, cut,
                                  std::regex("\n\\[lockcheck: ([0-9]+) bytes of this log cut here; it keeps "
                                             "the first 1000 and the last 1000\\]\n")))
        << text.substr(0, 1300);
    const std::string tail = text.substr(static_cast<std::size_t>(cut.position(0) + cut.length(0)));
    EXPECT_GE(tail.size(), 900U);
    EXPECT_TRUE(written.ends_with(tail)) << "the tail is the end of what was written";
    EXPECT_TRUE(tail.starts_with("stderr line ")) << "the tail starts at a line start: " << tail.substr(0, 40);
    EXPECT_EQ(std::stoull(cut[1].str()), written.size() - 1000 - tail.size()) << "every byte accounted for";
}

TEST(BoundedLog, OneHugeWriteIsBoundedToo) {
    const lockcheck::testing::ScratchDir dir("bounded-log");
    const auto path = dir.path() / "worker.log";
    BoundedLog log(path, 10, 10);
    log.append(std::string(100000, 'y'));
    EXPECT_LE(std::filesystem::file_size(path), 10U + 100U + 20U);
    EXPECT_EQ(log.cut_bytes(), 100000U - 20U);
}
