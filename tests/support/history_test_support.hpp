// Shared by the history tests: the one-line error a history text gets, and a
// nemesis record.
#pragma once

#include <sstream>
#include <string>
#include <utility>

#include "core/history_io.hpp"

namespace lockcheck::testing {

/// An acquire of key "k" by process 0 (owner "w0-1", ttl_ms 1000) at index 0, and its grant at index 1.
inline const std::string kAcquire =
    R"({"index":0,"time":100,"process":0,"type":"invoke","f":"acquire","key":"k","owner":"w0-1","ttl_ms":1000})";
inline const std::string kGranted =
    R"({"index":1,"time":200,"process":0,"type":"ok","f":"acquire","key":"k","owner":"w0-1","token":1})";

/// The HistoryError message of reading `text` as a history named "h.jsonl",
/// or "" when it is accepted.
inline std::string history_error_of(const std::string& text) {
    std::istringstream in(text);
    try {
        parse_history(in, "h.jsonl");
    } catch (const HistoryError& e) {
        return e.what();
    }
    return "";
}

/// A nemesis record: `f` with `value`, of `type`, at `index` and `time`.
inline Op nemesis_op(std::int64_t index, std::int64_t time, OpType type, const std::string& f, nlohmann::json value) {
    Op op;
    op.index = index;
    op.time = time;
    op.process = kNemesisProcess;
    op.type = type;
    op.f = f;
    op.value = std::move(value);
    return op;
}

}  // namespace lockcheck::testing
