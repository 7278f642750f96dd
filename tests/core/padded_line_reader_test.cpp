#include "core/padded_line_reader.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace lockcheck;

namespace {

struct SeenLine {
    std::string text;
    bool has_newline;
    bool operator==(const SeenLine&) const = default;
};

std::vector<SeenLine> lines_of(const std::string& text, std::size_t block_size) {
    std::istringstream in(text);
    PaddedLineReader reader(in, block_size);
    PaddedLineReader::Line line;
    std::vector<SeenLine> seen;
    while (reader.next(line)) {
        EXPECT_GE(line.capacity, line.text.size() + PaddedLineReader::kPadding) << "line " << seen.size();
        seen.push_back({std::string(line.text), line.has_newline});
    }
    EXPECT_EQ(reader.bytes_consumed(), text.size());
    return seen;
}

/// What std::getline yields, with has_newline as history_io read it before (!eof).
std::vector<SeenLine> getline_lines_of(const std::string& text) {
    std::istringstream in(text);
    std::vector<SeenLine> seen;
    std::string line;
    while (std::getline(in, line)) seen.push_back({line, !in.eof()});
    return seen;
}

}  // namespace

TEST(PaddedLineReader, SplitsAsGetlineDoesAtEveryBlockSize) {
    const std::vector<std::string> texts = {
        "",
        "\n",
        "\n\n",
        "one",
        "one\n",
        "one\ntwo",
        "one\ntwo\n",
        "\n\none\n\n two \r\n",
        std::string(1000, 'x').append("\n").append(3, 'y').append("\n").append(500, 'z'),
        std::string("a\0b\nc", 5),
    };
    for (const auto& text : texts)
        for (const std::size_t block : {1u, 2u, 3u, 7u, 64u, 4096u})
            EXPECT_EQ(lines_of(text, block), getline_lines_of(text))
                << "block " << block << ", text of " << text.size() << " bytes";
}

TEST(PaddedLineReader, ALineLongerThanTheBlockGrowsIt) {
    const std::string long_line(100'000, 'q');
    const auto seen = lines_of("a\n" + long_line + "\nb", 16);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1].text, long_line);
    EXPECT_EQ(seen[2], (SeenLine{"b", false}));
}
