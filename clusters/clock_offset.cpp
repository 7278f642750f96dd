#include "clusters/clock_offset.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <stdexcept>

namespace lockcheck {

std::filesystem::path clock_offset_file(const std::filesystem::path& node_dir) { return node_dir / "clock-offset"; }

std::vector<std::string> clock_environment(const std::filesystem::path& library,
                                           const std::filesystem::path& node_dir) {
    std::filesystem::create_directories(node_dir);
    write_clock_offset(node_dir, 0);
    return {"LD_PRELOAD=" + library.string(), "LOCKCHECK_CLOCK_OFFSET_FILE=" + clock_offset_file(node_dir).string()};
}

std::vector<std::string> clock_environment(const std::optional<std::filesystem::path>& library,
                                           const std::filesystem::path& node_dir) {
    return library ? clock_environment(*library, node_dir) : std::vector<std::string>{};
}

void write_clock_offset(const std::filesystem::path& node_dir, std::int64_t offset_ms) {
    // Padded to a fixed width and written with one pwrite at offset 0, so a
    // reader's pread never sees a shorter number followed by stale digits.
    std::string text = std::to_string(offset_ms);
    text.append(24 - std::min<std::size_t>(text.size(), 23), ' ');
    const auto path = clock_offset_file(node_dir);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot open " + path.string());
    const auto written = ::pwrite(fd, text.data(), text.size(), 0);
    ::close(fd);
    if (written != static_cast<ssize_t>(text.size())) throw std::runtime_error("cannot write " + path.string());
}

std::filesystem::path find_clock_library(const std::filesystem::path& executable) {
    std::error_code ec;
    const auto candidate = std::filesystem::absolute(executable, ec).parent_path() / "libclockshift.so";
    return std::filesystem::exists(candidate, ec) ? candidate : std::filesystem::path();
}

}  // namespace lockcheck
