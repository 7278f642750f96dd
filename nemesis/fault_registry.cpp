// To add a fault: write nemesis/NAME.{hpp,cpp} implementing Fault and its
// descriptor (with its options) in nemesis/NAME_descriptor.cpp, then list it
// here (docs/design.md, "Adding a topology, recipe or fault").
#include "nemesis/fault_registry.hpp"

#include "core/find_by_name.hpp"
#include "nemesis/client_clock_skew.hpp"
#include "nemesis/clock_skew.hpp"
#include "nemesis/corrupt_file.hpp"
#include "nemesis/disk_error.hpp"
#include "nemesis/failover.hpp"
#include "nemesis/kill_holder.hpp"
#include "nemesis/kill_restart.hpp"
#include "nemesis/packet_loss.hpp"
#include "nemesis/partition.hpp"
#include "nemesis/pause_client.hpp"
#include "nemesis/pause_holder.hpp"
#include "nemesis/pause_node.hpp"
#include "nemesis/power_loss.hpp"
#include "nemesis/proxy_node_fault.hpp"
#include "nemesis/proxy_worker_fault.hpp"
#include "nemesis/slow_reply.hpp"

namespace lockcheck {

const std::vector<FaultDescriptor>& fault_descriptors() {
    static const std::vector<FaultDescriptor> all{
        pause_holder_fault(), pause_node_fault(), kill_holder_fault(), kill_restart_fault(), power_loss_fault(), torn_write_fault(),
        corrupt_file_fault(), disk_error_fault(),
        failover_fault(),     partition_fault(),  packet_loss_fault(), clock_skew_fault(),   delay_fault(),
        slow_reply_fault(),   blackhole_fault(),  reset_fault(),       bandwidth_fault(),
        pause_client_fault(), client_partition_fault(), client_clock_skew_fault(),
    };
    return all;
}

const FaultDescriptor* find_fault(const std::string& name) { return find_by_name(fault_descriptors(), name); }

nlohmann::json default_fault_options() {
    nlohmann::json defaults = nlohmann::json::object();
    for (const auto& fault : fault_descriptors()) defaults.update(default_options(fault.options));
    return defaults;
}

}  // namespace lockcheck
