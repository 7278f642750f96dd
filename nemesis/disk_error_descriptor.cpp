#include <string>

#include "core/option_kinds.hpp"
#include "nemesis/disk_error.hpp"

namespace lockcheck {

FaultDescriptor disk_error_fault() {
    return {.name = "disk-error",
            .description =
                "while a node the holder's lock is on runs, its disk fails (disk_error_op) for the "
                "fault's duration, then heals; a server that exited meanwhile is restarted",
            .options = {choice_option("disk_error_op",
                                      "what fails: fsync (EIO, and the file's unsynced writes dropped, as Linux "
                                      "drops them), write (ENOSPC, a full disk) or both",
                                      "fsync", {"fsync", "write", "both"})},
            .needs_unsynced_data = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<DiskError>(LockLocator(targets.topology, targets.server_password),
                                                   disk_errors_for(options.at("disk_error_op").get<std::string>()));
            }};
}

}  // namespace lockcheck
