#include "run/stored_history.hpp"

#include <cstdio>

#include "core/history_io.hpp"

namespace lockcheck {

History read_stored_history(const std::filesystem::path& history_path) {
    HistoryReadReport read_report;
    History history = read_history(history_path, &read_report);
    if (read_report.dropped_torn_tail)
        std::fprintf(stderr,
                     "note: %s ends in a partly written record (the controller died mid-write); it was ignored\n",
                     history_path.c_str());
    return history;
}

}  // namespace lockcheck
