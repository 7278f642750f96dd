#include "clusters/subnet_lease.hpp"

#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <stdexcept>

#include "clusters/command.hpp"

namespace lockcheck {
namespace {

constexpr int kFirstSlot = 1;
constexpr int kSlots = 250;

bool address_in_use(const std::string& addresses, int slot) {
    return addresses.find("10.77." + std::to_string(slot) + ".") != std::string::npos;
}

}  // namespace

std::filesystem::path state_directory() {
    std::filesystem::path run_dir = "/run/lockcheck";
    std::error_code ec;
    std::filesystem::create_directories(run_dir, ec);
    if (!ec && ::access(run_dir.c_str(), W_OK) == 0) return run_dir;
    const char* tmp = std::getenv("TMPDIR");
    auto dir = std::filesystem::path(tmp ? tmp : "/tmp") / ("lockcheck-" + std::to_string(::getuid()));
    std::filesystem::create_directories(dir);
    return dir;
}

SubnetLease::SubnetLease(const std::string& run_id) {
    const auto dir = state_directory();
    std::string addresses;
    try {
        addresses = run_command({"ip", "-o", "-4", "addr", "show"}).output;
    } catch (const CommandError&) {
        // no iproute2: loopback mode will do without the check
    }
    const int start = static_cast<int>(std::hash<std::string>{}(run_id) % kSlots);
    for (int i = 0; i < kSlots; ++i) {
        const int slot = kFirstSlot + (start + i) % kSlots;
        if (address_in_use(addresses, slot)) continue;
        if (auto lock = FileLock::try_lock(dir / ("subnet-" + std::to_string(slot) + ".lock"))) {
            slot_ = slot;
            lock_ = std::move(lock);
            return;
        }
    }
    throw std::runtime_error("no free test subnet: " + std::to_string(kSlots) + " runs hold one already");
}


}  // namespace lockcheck
