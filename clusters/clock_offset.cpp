#include "clusters/clock_offset.hpp"

#include <ctime>

#include "clusters/runtimes/node_runtime.hpp"
#include "core/install_layout.hpp"

namespace lockcheck {

std::filesystem::path clock_offset_file(const std::filesystem::path& node_dir) { return node_dir / "clock-offset"; }

std::vector<std::string> clock_environment(const std::filesystem::path& library,
                                           const std::filesystem::path& node_dir) {
    std::filesystem::create_directories(node_dir);
    write_clock_state(node_dir, lc_clock_identity());
    return {"LD_PRELOAD=" + library.string(), "LOCKCHECK_CLOCK_OFFSET_FILE=" + clock_offset_file(node_dir).string()};
}

std::vector<std::string> clock_environment(const std::optional<std::filesystem::path>& library,
                                           const std::filesystem::path& node_dir) {
    return library ? clock_environment(*library, node_dir) : std::vector<std::string>{};
}

std::string clock_state_text(const ClockState& state) {
    char text[LC_CLOCK_RECORD_SIZE + 1];
    lc_clock_format(&state, text);
    return std::string(text, LC_CLOCK_RECORD_SIZE);
}

std::optional<ClockState> clock_state_of(const std::string& text) {
    ClockState state;
    if (!lc_clock_parse(text.data(), static_cast<long>(text.size()), &state)) return std::nullopt;
    return state;
}

void write_clock_state(const std::filesystem::path& node_dir, const ClockState& state) {
    rewrite_shared_file(clock_offset_file(node_dir), clock_state_text(state));
}

std::int64_t real_wall_clock_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

std::filesystem::path find_clock_library(const std::filesystem::path& executable) {
    return find_helper(executable, "libclockshift.so");
}

std::filesystem::path clock_launcher_beside(const std::filesystem::path& library) {
    return library.parent_path() / "lockcheck-clock-launch";
}

}  // namespace lockcheck
