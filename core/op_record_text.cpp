#include "core/op_record_text.hpp"

#include "core/json_writer.hpp"

namespace lockcheck {

// The fields in the order nlohmann's std::map keeps them (by name), as
// op_to_json sets them.
void append_op_record(std::string& out, const Op& op) {
    JsonObjectAppender record(out);
    if (op.error) record.text("error", *op.error);
    record.text("f", op.f.view());
    record.integer("index", op.index);
    if (!op.key.view().empty()) record.text("key", op.key.view());
    if (op.node) record.text("node", *op.node);
    if (op.owner) record.text("owner", *op.owner);
    if (op.is_nemesis())
        record.text("process", "nemesis");
    else
        record.integer("process", op.process);
    if (op.resource) record.text("resource", *op.resource);
    record.integer("time", op.time);
    if (op.token) record.integer("token", *op.token);
    if (op.ttl_ms) record.integer("ttl_ms", *op.ttl_ms);
    record.text("type", to_string(op.type));
    if (op.valid_ms) record.integer("valid_ms", *op.valid_ms);
    if (!op.value.is_null()) record.value("value", op.value);
    record.close();
}

}  // namespace lockcheck
