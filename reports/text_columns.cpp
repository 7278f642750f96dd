#include "reports/text_columns.hpp"

#include <vector>

namespace lockcheck {
namespace {

std::size_t code_points(std::string_view text) {
    std::size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80;
    return n;
}

std::vector<std::string_view> words_of(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t blank = text.find_first_of(" \n\t", start);
        const std::size_t end = blank == std::string_view::npos ? text.size() : blank;
        if (end > start) words.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return words;
}

}  // namespace

std::string hanging_paragraph(std::string_view head, std::size_t head_width, std::string_view text, std::size_t width) {
    const std::string indent(head_width, ' ');
    std::string out(head);
    std::size_t column = code_points(head);
    if (column > head_width) {
        out += "\n" + indent;
    } else {
        out += std::string(head_width - column, ' ');
    }
    column = head_width;
    bool line_empty = true;
    for (const std::string_view word : words_of(text)) {
        const std::size_t length = code_points(word);
        if (!line_empty && column + 1 + length > width) {
            out += "\n" + indent;
            column = head_width;
            line_empty = true;
        }
        if (!line_empty) {
            out += ' ';
            ++column;
        }
        out += word;
        column += length;
        line_empty = false;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
}

}  // namespace lockcheck
