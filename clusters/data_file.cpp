#include "clusters/data_file.hpp"

#include <algorithm>
#include <system_error>

namespace lockcheck {

bool file_name_matches(const std::string& name, const std::string& pattern) {
    const auto star = pattern.find('*');
    if (star == std::string::npos) return name == pattern;
    const std::string_view prefix(pattern.data(), star), suffix(pattern.data() + star + 1);
    return name.size() >= prefix.size() + suffix.size() && name.starts_with(prefix) && name.ends_with(suffix);
}

std::optional<std::filesystem::path> find_data_file(const std::filesystem::path& data_dir, const DataFile& file) {
    std::error_code error;
    std::optional<std::filesystem::path> newest;
    std::filesystem::file_time_type newest_time{};
    for (const auto& entry : std::filesystem::directory_iterator(data_dir / file.folder, error)) {
        if (!entry.is_regular_file(error) || !file_name_matches(entry.path().filename().string(), file.pattern))
            continue;
        const auto written = entry.last_write_time(error);
        if (error) continue;
        if (!newest || written > newest_time || (written == newest_time && entry.path() > *newest)) {
            newest = entry.path();
            newest_time = written;
        }
    }
    return newest;
}

const DataFile* find_data_file_kind(const std::vector<DataFile>& files, const std::string& name) {
    const auto it = std::find_if(files.begin(), files.end(), [&](const DataFile& f) { return f.name == name; });
    return it == files.end() ? nullptr : &*it;
}

}  // namespace lockcheck
