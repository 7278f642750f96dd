#include "core/regular_file.hpp"

namespace lockcheck {

std::optional<std::string> not_a_regular_file(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    switch (status.type()) {
        case fs::file_type::regular: return std::nullopt;
        case fs::file_type::not_found: return "does not exist";
        case fs::file_type::directory: return "is a directory, not a regular file";
        case fs::file_type::fifo: return "is a FIFO, not a regular file";
        case fs::file_type::socket: return "is a socket, not a regular file";
        case fs::file_type::character: return "is a character device, not a regular file";
        case fs::file_type::block: return "is a block device, not a regular file";
        default: return "cannot be examined" + (ec ? ": " + ec.message() : std::string());
    }
}

}  // namespace lockcheck
