#include "clusters/network/subnet_lease.hpp"

#include <functional>
#include <stdexcept>

#include "host/system_command.hpp"
#include "host/state_directory.hpp"

namespace lockcheck {
namespace {

constexpr int kFirstSlot = 1;
constexpr int kSlots = 250;

bool address_in_use(const std::string& addresses, int slot) {
    return addresses.find("10.77." + std::to_string(slot) + ".") != std::string::npos;
}

}  // namespace

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
