#include "core/install_layout.hpp"

namespace lockcheck {
namespace {

std::filesystem::path binary_dir(const std::filesystem::path& executable) {
    std::error_code ec;
    return std::filesystem::absolute(executable, ec).parent_path();
}

}  // namespace

std::vector<std::filesystem::path> helper_candidates(const std::filesystem::path& executable, const std::string& name) {
    const auto dir = binary_dir(executable);
    return {dir / name, dir.parent_path() / "lib" / "lockcheck" / name};
}

std::filesystem::path find_helper(const std::filesystem::path& executable, const std::string& name) {
    std::error_code ec;
    for (const auto& candidate : helper_candidates(executable, name))
        if (std::filesystem::exists(candidate, ec)) return candidate;
    return {};
}

std::filesystem::path installed_data_dir(const std::filesystem::path& executable) {
    return binary_dir(executable).parent_path() / "share" / "lockcheck";
}

}  // namespace lockcheck
