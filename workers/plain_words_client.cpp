#include "workers/plain_words_client.hpp"

#include <cctype>
#include <string_view>

namespace lockcheck {
namespace {

bool plain_character(char c, bool first_word) {
    if (std::isalnum(static_cast<unsigned char>(c))) return true;
    if (c == '=') return !first_word;  // a first word with '=' is an assignment to the shell
    return std::string_view("_./:,+@%-").find(c) != std::string_view::npos;
}

}  // namespace

std::optional<std::vector<std::string>> plain_command_words(const std::string& command) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : command + ' ') {
        if (c == ' ' || c == '\t') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else if (plain_character(c, words.empty())) {
            word += c;
        } else {
            return std::nullopt;
        }
    }
    if (words.empty()) return std::nullopt;
    return words;
}

}  // namespace lockcheck
