// One op as the text of its history.jsonl record, written without a
// nlohmann DOM: the recorder encodes every op under its lock, so this is on
// every op's path. The text is exactly dump_json(op_to_json(op)) (fields in
// name order, absent optionals omitted), so history.jsonl is unchanged.
#pragma once

#include <string>

#include "core/op.hpp"

namespace lockcheck {

/// Appends `op`'s record (without a newline) to `out`.
void append_op_record(std::string& out, const Op& op);

}  // namespace lockcheck
