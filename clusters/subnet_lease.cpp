#include "clusters/subnet_lease.hpp"

#include <fcntl.h>
#include <sys/file.h>
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
        auto path = dir / ("subnet-" + std::to_string(slot) + ".lock");
        int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) continue;
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            slot_ = slot;
            fd_ = fd;
            path_ = path;
            return;
        }
        ::close(fd);
    }
    throw std::runtime_error("no free test subnet: " + std::to_string(kSlots) + " runs hold one already");
}

SubnetLease::~SubnetLease() {
    if (fd_ >= 0) ::close(fd_);  // releases the flock; the file stays for the next run
}

}  // namespace lockcheck
