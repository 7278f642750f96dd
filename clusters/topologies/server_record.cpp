#include "clusters/topologies/server_record.hpp"

#include "core/atomic_file.hpp"

namespace lockcheck {

void write_server_record(const std::filesystem::path& path, const ServerRecordOutcome& outcome, nlohmann::json header,
                         const std::vector<nlohmann::json>& events) {
    header["server"] = outcome.server;
    header["read"] = outcome.read;
    if (!outcome.read) header["why"] = outcome.why;
    header["events"] = outcome.events;
    header["seconds"] = outcome.seconds;
    // Keys and values are the servers' bytes: any that are not UTF-8 are replaced, not refused.
    const auto line = [](const nlohmann::json& j) {
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    };
    std::string text = line(header);
    for (const auto& event : events) text += line(event);
    write_text_file(path, text);
}

}  // namespace lockcheck
