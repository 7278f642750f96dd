#include "host/process_title.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace lockcheck {
namespace {

/// arg_start and arg_end of /proc/self/stat (fields 48 and 49, proc(5)), or {0, 0}.
std::pair<std::uintptr_t, std::uintptr_t> command_line_area() {
    std::ifstream in("/proc/self/stat");
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto after_name = stat.rfind(')');
    if (after_name == std::string::npos || after_name + 2 > stat.size()) return {0, 0};
    std::istringstream fields(stat.substr(after_name + 2));  // field 3 onwards
    std::string field;
    std::uintptr_t start = 0;
    std::uintptr_t end = 0;
    for (int index = 3; index <= 49 && fields >> field; ++index) {
        if (index == 48) start = std::stoull(field);
        if (index == 49) end = std::stoull(field);
    }
    return {start, end};
}

}  // namespace

ProcessTitle::ProcessTitle(const char* const* argv) {
    if (argv == nullptr || argv[0] == nullptr) return;
    const auto [start, end] = command_line_area();
    if (start == 0 || end <= start || reinterpret_cast<std::uintptr_t>(argv[0]) != start) return;
    // main's argv strings are writable: C11 5.1.2.2.1 says so of argv's strings.
    area_ = const_cast<char*>(argv[0]);
    size_ = end - start;
}

bool ProcessTitle::set(const std::vector<std::string>& words) const {
    if (area_ == nullptr) return false;
    std::string title;
    for (const auto& word : words) title.append(word).push_back('\0');
    if (title.size() > size_) title.resize(size_);
    std::memcpy(area_, title.data(), title.size());
    std::memset(area_ + title.size(), 0, size_ - title.size());
    area_[size_ - 1] = '\0';
    return true;
}

}  // namespace lockcheck
