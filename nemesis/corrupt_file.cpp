#include "nemesis/corrupt_file.hpp"

#include <stdexcept>

#include "clusters/file_damage.hpp"
#include "core/interruptible_sleep.hpp"
#include "nemesis/kill_restart.hpp"

namespace lockcheck {

const DataFile* corrupt_file_target(const std::vector<DataFile>& files, const std::string& name) {
    if (name == "log") return files.empty() ? nullptr : &files.front();
    return find_data_file_kind(files, name);
}

std::string damage_file(const std::filesystem::path& path, const DataFile& kind, const CorruptFileOptions& options,
                        std::uint64_t seed) {
    if (options.action == "cut-records") return cut_records(path, kind.records, options.records);
    if (options.action == "cut-bytes") return cut_bytes(path, options.bytes);
    if (options.action == "zero") return zero_range(path, options.end_offset, options.bytes);
    if (options.action == "flip-bits") return flip_bits(path, options.end_offset, options.bytes, options.bits, seed);
    throw std::invalid_argument("corrupt_action " + options.action + " is no damage done to one file");
}

std::pair<const DataFile*, std::filesystem::path> CorruptFile::target_file(const Node& node) const {
    const DataFile* kind = corrupt_file_target(node.data_files(), options_.file);
    if (!kind) throw std::runtime_error("node " + node.name() + " keeps no data file " + options_.file);
    const auto path = find_data_file(node.data_dir(), *kind);
    if (!path)
        throw std::runtime_error("node " + node.name() + " has no file " + (kind->folder / kind->pattern).string() +
                                 " in " + node.data_dir().string());
    return {kind, *path};
}

std::optional<std::vector<std::string>> CorruptFile::start(const FaultEvent& event, const std::stop_token& stop) {
    const auto targets =
        kill_restart_targets(locator_.nodes_of_current_lock(std::chrono::seconds(5), stop), event.pick, nodes_);
    if (targets.empty()) return std::nullopt;
    std::vector<std::pair<const DataFile*, std::filesystem::path>> files;
    for (const Node* node : targets) files.push_back(target_file(*node));
    const auto copy_of = [](const Node* node) { return node->dir() / "corrupt-file.older"; };
    if (options_.action == "older-copy") {
        for (std::size_t i = 0; i < targets.size(); ++i)
            std::filesystem::copy_file(files[i].second, copy_of(targets[i]),
                                       std::filesystem::copy_options::overwrite_existing);
        if (!interruptible_sleep_for(stop, std::chrono::milliseconds(options_.copy_age_ms))) return std::nullopt;
    }
    std::vector<std::string> done;
    restart_.take_down(targets, [&](const std::vector<Node*>& nodes) {
        for (Node* node : nodes) node->kill();
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const auto& [kind, path] = files[i];
            done.push_back(nodes[i]->name());
            done.push_back(kind->name + " " + path.filename().string() + ": " +
                           (options_.action == "older-copy" ? restore_copy(path, copy_of(nodes[i]))
                                                            : damage_file(path, *kind, options_, event.pick + i)));
        }
    });
    return done;
}

}  // namespace lockcheck
