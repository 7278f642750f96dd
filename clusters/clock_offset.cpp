#include "clusters/clock_offset.hpp"

#include <algorithm>

#include "clusters/node_runtime.hpp"
#include "core/install_layout.hpp"

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

std::string clock_offset_text(std::int64_t offset_ms) {
    std::string text = std::to_string(offset_ms);
    text.append(24 - std::min<std::size_t>(text.size(), 23), ' ');
    return text;
}

void write_clock_offset(const std::filesystem::path& node_dir, std::int64_t offset_ms) {
    rewrite_shared_file(clock_offset_file(node_dir), clock_offset_text(offset_ms));
}

std::filesystem::path find_clock_library(const std::filesystem::path& executable) {
    return find_helper(executable, "libclockshift.so");
}

}  // namespace lockcheck
