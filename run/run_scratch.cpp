#include "run/run_scratch.hpp"

#include <stdexcept>

#include "host/state_directory.hpp"

namespace lockcheck {

namespace fs = std::filesystem;

fs::path run_scratch_link(const std::string& run_id) {
    return private_directory(state_directory() / "runs") / (run_id + ".scratch");
}

RunScratch::RunScratch(const fs::path& run_dir, const std::string& run_id)
    : dir_(fs::absolute(run_dir) / "scratch"), link_(run_scratch_link(run_id)) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) throw std::runtime_error("cannot create scratch directory " + dir_.string() + ": " + ec.message());
    fs::remove(link_, ec);
    fs::create_directory_symlink(dir_, link_, ec);
    if (ec) throw std::runtime_error("cannot create " + link_.string() + ": " + ec.message());
}

RunScratch::~RunScratch() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
    fs::remove(link_, ignored);
}

std::vector<std::string> remove_run_scratch(const std::string& run_id) noexcept {
    std::vector<std::string> removed;
    try {
        const auto link = run_scratch_link(run_id);
        std::error_code ec;
        if (!fs::is_symlink(link, ec)) return removed;
        const auto target = fs::read_symlink(link, ec);
        const auto run_dir = target.parent_path().filename().string();
        const std::string suffix = "-" + run_id;
        const bool a_run_scratch = !ec && target.is_absolute() && target.filename() == "scratch" &&
                                   run_dir.size() > suffix.size() &&
                                   run_dir.compare(run_dir.size() - suffix.size(), suffix.size(), suffix) == 0;
        if (a_run_scratch && !fs::is_symlink(target, ec) && fs::remove_all(target, ec) > 0)
            removed.push_back(target.string());
        fs::remove(link, ec);
    } catch (...) {
        // never throws; a link left is found again by the next clean
    }
    return removed;
}

}  // namespace lockcheck
