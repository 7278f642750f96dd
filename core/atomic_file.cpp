#include "core/atomic_file.hpp"

#include <fstream>
#include <stdexcept>

#include "core/json_text.hpp"

namespace lockcheck {

void write_text_file(const std::filesystem::path& path, const std::string& text) {
    const auto temporary = path.parent_path() / ("." + path.filename().string() + ".tmp");
    try {
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            if (!out) throw std::runtime_error("cannot write " + temporary.string());
            out << text;
            if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
        }
        std::error_code ec;
        std::filesystem::rename(temporary, path, ec);
        if (ec) throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
    } catch (...) {  // a full disk, a directory in the way: leave no temporary behind
        std::error_code ec;
        std::filesystem::remove(temporary, ec);
        throw;
    }
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& json) {
    write_text_file(path, dump_json(json, 2) + "\n");
}

}  // namespace lockcheck
