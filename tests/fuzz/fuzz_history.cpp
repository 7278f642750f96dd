// libFuzzer target: the history reader, and every checker on what it accepts.
// Any input must end in a history or a HistoryError, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "checkers/run_checkers.hpp"
#include "core/history_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        const lockcheck::History history = lockcheck::parse_history(in, "fuzz");
        lockcheck::run_checkers(history);
    } catch (const lockcheck::HistoryError&) {}
    return 0;
}
