// One kind of file a server keeps in its data directory, as the storage
// faults aim at it (corrupt-file: nemesis/corrupt_file.hpp). Each server
// lists its own (clusters/servers/server_data_files.hpp); a topology carries
// its server's list (TopologyDescriptor::data_files), and a node its
// program's (NodeProgram::data_files).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lockcheck {

/// How a file's records can be told apart, for cutting whole records off
/// its end (clusters/file_damage.hpp).
enum class RecordFormat {
    None,  ///< lockcheck cannot read its records
    Resp,  ///< Redis's AOF: RESP arrays of bulk strings, one command (or MULTI ... EXEC block) each
};

struct DataFile {
    std::string name;         ///< spec field corrupt_file's value, e.g. "aof-incr"
    std::string description;  ///< one line, for `lockcheck list` and docs/servers.md
    /// The folder it lives in, relative to the data directory ("" for the
    /// data directory itself).
    std::filesystem::path folder;
    /// Its file name, with at most one '*' standing for any text
    /// ("appendonly.aof.*.incr.aof"); of several matches the newest counts.
    std::string pattern;
    RecordFormat records = RecordFormat::None;
};

/// The file `file` names under `data_dir` now: of the regular files in its
/// folder that match its pattern, the one written last (the greater name
/// when two were written at the same time). nullopt when none matches.
std::optional<std::filesystem::path> find_data_file(const std::filesystem::path& data_dir, const DataFile& file);

/// Whether `name` matches `pattern` (at most one '*', for any text).
bool file_name_matches(const std::string& name, const std::string& pattern);

/// The entry of `files` named `name`, or nullptr.
const DataFile* find_data_file_kind(const std::vector<DataFile>& files, const std::string& name);

}  // namespace lockcheck
