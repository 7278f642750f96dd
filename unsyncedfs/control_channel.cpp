#include "unsyncedfs/control_channel.hpp"

#include <chrono>

#include "host/line_channel.hpp"

namespace lockcheck::unsyncedfs {

std::string answer_command(const std::string& command, DurabilityModel& model) {
    if (command == "power-loss" || command.rfind("power-loss ", 0) == 0) {
        const auto tear = tear_from_arguments(command.substr(std::string("power-loss").size()));
        if (!tear) return "error power-loss takes nothing or 'torn=MODE seed=N', not '" + command + "'";
        const auto report = model.power_loss(*tear);
        return "ok power-loss files-restored=" + std::to_string(report.files_restored) +
               " files-torn=" + std::to_string(report.files_torn) +
               " changes-undone=" + std::to_string(report.changes_undone) +
               " failures=" + std::to_string(report.failures);
    }
    if (command.rfind("disk-error", 0) == 0) {
        const auto errors = disk_errors_from_arguments(command.substr(std::string("disk-error").size()));
        if (!errors) return "error disk-error takes fsync=eio|ok and write=enospc|ok, not '" + command + "'";
        model.set_disk_errors(*errors);
        return "ok disk-error " + disk_errors_arguments(*errors);
    }
    if (command == "status") {
        const auto status = model.status();
        return "ok status unsynced-files=" + std::to_string(status.unsynced_files) +
               " pending-changes=" + std::to_string(status.pending_changes);
    }
    return "error unknown command '" + command + "'";
}

void serve_control(int in_fd, int out_fd, DurabilityModel& model) {
    LineChannel channel(in_fd, out_fd);
    std::string command;
    for (;;) {
        const auto status = channel.read_line(command, std::chrono::steady_clock::now() + std::chrono::hours(24));
        if (status == LineChannel::ReadStatus::Timeout) continue;
        if (status != LineChannel::ReadStatus::Line) return;
        if (command.empty()) continue;
        if (!channel.write_line(answer_command(command, model))) return;
    }
}

}  // namespace lockcheck::unsyncedfs
