#include "run/run_directory.hpp"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <random>
#include <stdexcept>

#include "spec/spec.hpp"

namespace lockcheck {

std::string new_run_id() {
    std::random_device device;
    return fmt::format("{:06x}", device() & 0xffffffu);
}

std::filesystem::path history_file_of(const std::filesystem::path& run_dir_or_history) {
    return std::filesystem::is_directory(run_dir_or_history) ? run_dir_or_history / "history.jsonl"
                                                             : run_dir_or_history;
}

RunDirectory create_run_directory(const std::filesystem::path& store, const std::string& scenario) {
    if (!scenario.empty())
        if (const auto problem = scenario_name_problem(scenario); !problem.empty())
            throw std::invalid_argument("scenario name " + problem);
    RunDirectory run;
    run.run_id = new_run_id();
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    run.path = store / scenario / (std::string(stamp) + "-" + run.run_id);
    std::error_code ec;
    std::filesystem::create_directories(run.path, ec);
    if (ec) throw std::runtime_error("cannot create run directory " + run.path.string() + ": " + ec.message());
    const auto latest = store / "latest";
    const auto temporary = store / (".latest-" + run.run_id);
    std::filesystem::create_directory_symlink(std::filesystem::relative(run.path, store), temporary, ec);
    if (!ec) std::filesystem::rename(temporary, latest, ec);  // atomic replace
    if (ec) std::filesystem::remove(temporary, ec);
    return run;
}

}  // namespace lockcheck
