#include <string>

#include "clusters/servers/server_data_files.hpp"
#include "clusters/topologies/topology_registry.hpp"
#include "core/option_kinds.hpp"
#include "nemesis/corrupt_file.hpp"
#include "nemesis/kill_restart.hpp"

namespace lockcheck {
namespace {

/// The largest range or cut: 1 GiB.
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 30;
/// The longest a copy may age: 1 hour, like every other wait of a spec.
constexpr std::int64_t kMaxCopyAgeMs = 3'600'000;

std::string file_names(const std::vector<DataFile>& files) {
    std::vector<std::string> names;
    for (const auto& f : files) names.push_back(f.name);
    return choice_list(names);
}

/// Why the spec's topology cannot have corrupt_file's file damaged by corrupt_action, or nullopt.
SpecVerdict refuse_corrupt_file(const SpecView& spec) {
    const TopologyDescriptor* topology = find_topology(spec.topology);
    if (!topology) return std::nullopt;  // the spec's own check names an unknown topology
    const auto file = spec.fault_options.value("corrupt_file", std::string(kServerLogFile));
    const auto action = spec.fault_options.value("corrupt_action", std::string("cut-records"));
    const DataFile* kind = corrupt_file_target(topology->data_files, file);
    if (!kind)
        return SpecRefusal{"corrupt_file", "names " + file + ", which topology " + spec.topology +
                                               "'s servers do not keep (they keep " +
                                               file_names(topology->data_files) + ")"};
    if (action == "cut-records" && kind->records == RecordFormat::None)
        return SpecRefusal{"corrupt_action", "cut-records needs a file whose records lockcheck can tell apart, and " +
                                                 kind->name + "'s it cannot: use cut-bytes"};
    return std::nullopt;
}

CorruptFileOptions corrupt_options(const nlohmann::json& options) {
    return {.file = options.at("corrupt_file").get<std::string>(),
            .action = options.at("corrupt_action").get<std::string>(),
            .records = options.at("corrupt_records").get<std::int64_t>(),
            .bytes = options.at("corrupt_bytes").get<std::int64_t>(),
            .end_offset = options.at("corrupt_end_offset").get<std::int64_t>(),
            .bits = options.at("corrupt_bits").get<std::int64_t>(),
            .copy_age_ms = options.at("corrupt_copy_age_ms").get<std::int64_t>()};
}

}  // namespace

FaultDescriptor corrupt_file_fault() {
    // The same fields as kill-restart's: one restart delay for every kind of
    // crash, and the nodes of the lock one event strikes, picked alike.
    const FaultDescriptor kill_restart = kill_restart_fault();
    const OptionDescriptor restart_delay = *find_option(kill_restart.options, "restart_delay_ms");
    const OptionDescriptor nodes = *find_option(kill_restart.options, kill_restart.count_option);
    return {
        .name = "corrupt-file",
        .description = "SIGKILL a node (kill_restart_nodes: several) the holder's lock is on, damage one of its "
                       "data files (corrupt_action), restart it after restart_delay_ms",
        .options = {choice_option("corrupt_file",
                                  "which of the server's data files: log (its write-ahead log) or one by name "
                                  "(docs/servers.md lists each server's)",
                                  kServerLogFile, data_file_choices()),
                    choice_option("corrupt_action",
                                  "cut-records (whole records off the end), cut-bytes, zero or flip-bits (a range "
                                  "at the end), older-copy (put back a copy taken corrupt_copy_age_ms earlier)",
                                  "cut-records", {"cut-records", "cut-bytes", "zero", "flip-bits", "older-copy"}),
                    integer_option("corrupt_records", "cut-records: how many whole records to cut off", 1, 1, 1'000'000),
                    integer_option("corrupt_bytes",
                                   "cut-bytes: how many bytes to cut off; zero and flip-bits: the range's length", 512,
                                   1, kMaxBytes),
                    integer_option("corrupt_end_offset",
                                   "zero and flip-bits: how many bytes before the file's end the range ends", 0, 0,
                                   kMaxBytes),
                    integer_option("corrupt_bits", "flip-bits: how many bits to flip in the range", 1, 1, 4096),
                    integer_option("corrupt_copy_age_ms",
                                   "older-copy: how long before the kill the copy is taken (the server runs on)",
                                   1000, 0, kMaxCopyAgeMs),
                    nodes,
                    restart_delay},
        .count_option = kill_restart.count_option,
        .make = [count = kill_restart.count_option](const FaultTargets& targets,
                                                    const nlohmann::json& options) -> std::unique_ptr<Fault> {
            return std::make_unique<CorruptFile>(LockLocator(targets.topology, targets.server_password),
                                                 corrupt_options(options), options.at(count).get<std::int64_t>(),
                                                 options.at("restart_delay_ms").get<std::int64_t>(), targets.interrupt);
        },
        .refuses = refuse_corrupt_file};
}

}  // namespace lockcheck
