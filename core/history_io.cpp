#include "core/history_io.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "core/json_text.hpp"

namespace lockcheck {

History parse_history(std::istream& in, const std::string& source, HistoryReadReport* report) {
    History history;
    OpPairing pairing;
    std::string line;
    std::size_t line_number = 0;
    while (std::getline(in, line)) {
        ++line_number;
        const bool has_newline = !in.eof();
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const std::string where = source + ":" + std::to_string(line_number) + ": ";
        Op op;
        try {
            op = op_from_json(parse_json_bounded(line));
        } catch (const JsonInputError& e) {
            if (!has_newline && !e.too_deep()) {  // torn final record of a writer that died mid-line
                if (report) report->dropped_torn_tail = true;
                break;
            }
            throw HistoryError(where + e.what());
        } catch (const OpFormatError& e) {
            throw HistoryError(where + e.what());
        }
        if (!history.empty() && op.index <= history.back().index)
            throw HistoryError(where + "index " + std::to_string(op.index) + " does not follow index " +
                               std::to_string(history.back().index));
        if (!history.empty() && op.time < history.back().time)
            throw HistoryError(where + "time " + std::to_string(op.time) + " is before time " +
                               std::to_string(history.back().time) + " of op " + std::to_string(history.back().index) +
                               ": the recorder's one clock never goes back");
        history.push_back(std::move(op));
        try {
            pairing.add(history, history.size() - 1);
        } catch (const HistoryError& e) {
            throw HistoryError(where + e.what());
        }
    }
    return history;
}

History read_history(const std::filesystem::path& path, HistoryReadReport* report) {
    std::ifstream in(path);
    if (!in) throw HistoryError(path.string() + ": cannot open: " + std::strerror(errno));
    return parse_history(in, path.string(), report);
}

HistoryWriter::HistoryWriter(const std::filesystem::path& path)
    : file_(std::fopen(path.c_str(), "w")), path_(path.string()) {
    if (!file_) throw std::runtime_error(path_ + ": cannot create: " + std::strerror(errno));
}

HistoryWriter::~HistoryWriter() {
    if (file_) std::fclose(file_);
}

void HistoryWriter::write(const Op& op) {
    std::string line = dump_json(op_to_json(op));
    line.push_back('\n');
    std::lock_guard lock(mutex_);
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
        throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
}

void write_history(const std::filesystem::path& path, const History& history) {
    HistoryWriter writer(path);
    for (const auto& op : history) writer.write(op);
}

}  // namespace lockcheck
