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

/// A first word the shell runs itself (a builtin or a reserved word), which
/// names no program a launcher could exec.
bool shell_word(const std::string& word) {
    static const char* const kShellWords[] = {
        ".",      "cd",    "command", "eval", "export", "read",  "readonly", "set",    "shift", "source",   "trap",
        "ulimit", "umask", "unset",   "wait", "times",  "alias", "exit",     "return", "break", "continue", "if",
        "while",  "until", "for",     "case", "time",   "!",     "{",        "true",   "false", ":"};
    for (const char* shell : kShellWords)
        if (word == shell) return true;
    return false;
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
    // `exec PROGRAM ...` asks the shell to become the program, which the launcher does anyway.
    while (!words.empty() && words.front() == "exec") words.erase(words.begin());
    if (words.empty() || shell_word(words.front())) return std::nullopt;
    return words;
}

}  // namespace lockcheck
